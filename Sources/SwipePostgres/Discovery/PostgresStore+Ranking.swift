import SwipeStore

/// The genders check's reads (`DiscoveryReader`), as on SQLite; the
/// ranking's row of a profile is the rules' `SQLDatabase.rankStats`.
extension PostgresStore: DiscoveryReader {
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
