import SwipeStore

/// The ranking's reads for `why` and the genders check (`DiscoveryReader`).
extension SQLiteStore: DiscoveryReader {
    public func rankStats(id: String) throws -> Discovery.RankStats? {
        guard let key = try profileKey(id: id) else { return nil }
        return try connection.statement(DiscoverySQL.statsOf).bind(.int(key)).first {
            SQLiteFeed.stats(from: $0, offset: 0)
        }
            ?? Discovery.RankStats()
    }

    /// One pass over the profiles (a command's question, not the feed's).
    public func genderCounts() throws -> [(gender: String, count: Int)] {
        try connection.statement(
            """
            SELECT lower(trim(gender, ' ' || char(9, 10, 13))) AS g, count(*) FROM profiles
            WHERE g IS NOT NULL AND g <> '' GROUP BY g ORDER BY g
            """
        ).bind().map { ($0.text(0), $0.int(1)) }
    }

    public func soughtGenders() throws -> Set<String> {
        Set(
            try connection.statement("SELECT DISTINCT seeking FROM profiles WHERE seeking IS NOT NULL").bind()
                .map { $0.text(0) }.flatMap { Discovery.seeking(fromList: $0) })
    }
}
