/// Counts over the whole database, for `swipe stats`.
public struct StoreStats: Hashable, Sendable {
    public var profiles: Int
    public var viewers: Int
    public var decisions: Int
    public var undone: Int
    public var likes: Int
    public var hates: Int
    public var superlikes: Int
    public var matches: Int
    public var missedMatches: Int
}

extension Store {
    /// Counts of profiles, decisions (standing ones by kind), matches.
    public func stats() throws -> StoreStats {
        try connection.statement("""
            SELECT
              (SELECT count(*) FROM profiles),
              (SELECT count(DISTINCT viewer) FROM decisions),
              (SELECT count(*) FROM decisions),
              (SELECT count(*) FROM decisions WHERE undone_at IS NOT NULL),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'hate'),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM matches WHERE unmatched_at IS NULL),
              (SELECT count(*) FROM missed_matches)
            """).bind().first { row in
            StoreStats(
                profiles: row.int(0), viewers: row.int(1), decisions: row.int(2), undone: row.int(3),
                likes: row.int(4), hates: row.int(5), superlikes: row.int(6), matches: row.int(7),
                missedMatches: row.int(8))
        }!
    }
}
