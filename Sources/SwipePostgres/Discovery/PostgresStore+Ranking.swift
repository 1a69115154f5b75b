import SwipeStore

/// The ranking's reads for `why` and the genders check (`DiscoveryReader`), as on SQLite.
extension PostgresStore: DiscoveryReader {
    public func rankStats(id: String) throws -> Discovery.RankStats? {
        try session {
            guard !id.utf8.contains(0),
                let key = try connection.statement("SELECT key FROM profiles WHERE id = $1::text").first(
                    [.text(id)], { try $0.int(0) })
            else { return nil }
            return try connection.statement(PostgresDiscoverySQL.statsOf).first([.int(key)]) {
                try PostgresFeed.stats($0, 0)
            }
                ?? Discovery.RankStats()
        }
    }

    public func genderCounts() throws -> [(gender: String, count: Int)] {
        try session {
            try connection.query(
                """
                SELECT g, count(*) FROM (SELECT lower(btrim(gender, E' \\t\\n\\r') COLLATE "C") AS g FROM profiles) AS p
                WHERE g IS NOT NULL AND g <> '' GROUP BY g ORDER BY g COLLATE "C"
                """
            ).map { (try $0.text(0), try $0.int(1)) }
        }
    }

    public func soughtGenders() throws -> Set<String> {
        try session {
            Set(
                try connection.query("SELECT DISTINCT seeking FROM profiles WHERE seeking IS NOT NULL")
                    .map { try $0.text(0) }.flatMap { Discovery.seeking(fromList: $0) })
        }
    }
}
