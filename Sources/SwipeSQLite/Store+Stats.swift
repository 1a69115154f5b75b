import SwipeCSV
import SwipeStore

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

extension Store {
    /// `viewer`'s counts (index searches on the viewer's and the received side).
    ///
    /// - Throws: `StoreError.unknownProfile`.
    public func stats(viewer: String) throws -> ViewerStats {
        let key = try requireKey(viewer)
        return try connection.statement("""
            SELECT
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'hate'),
              (SELECT count(*) FROM decisions WHERE profile = ?1 AND undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE profile = ?1 AND undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM matches WHERE low = ?1) + (SELECT count(*) FROM matches WHERE high = ?1),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NOT NULL)
            """).bind(.int(key)).first { row in
            ViewerStats(
                viewer: viewer, decided: row.int(0), likesGiven: row.int(1), superlikesGiven: row.int(2),
                hatesGiven: row.int(3), likesReceived: row.int(4), superlikesReceived: row.int(5),
                matches: row.int(6), undone: row.int(7))
        }!
    }
}
