import SwipeStore

/// The genders check's reads (`DiscoveryReader`; the ranking's row of a
/// profile, `rankStats`, is the rules' `SQLDatabase.rankStats`).
extension SQLiteStore: DiscoveryReader {
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
