import SwipeStore

extension PostgresStore {
    public func stats() throws -> StoreStats {
        try session {
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
                """).first([]) { row in
                StoreStats(
                    profiles: try row.int(0), viewers: try row.int(1), decisions: try row.int(2), undone: try row.int(3),
                    likes: try row.int(4), hates: try row.int(5), superlikes: try row.int(6), matches: try row.int(7),
                    missedMatches: try row.int(8))
            }!
        }
    }

    /// As the SQLite store counts them: `matches` counts the viewer's match
    /// rows, ended ones included.
    public func stats(viewer: String) throws -> ViewerStats {
        try session {
            let key = try requireKey(viewer)
            return try connection.statement("""
                SELECT
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL),
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'like'),
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'superlike'),
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'hate'),
                  (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL AND decision = 'like'),
                  (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL AND decision = 'superlike'),
                  (SELECT count(*) FROM matches WHERE low = $1) + (SELECT count(*) FROM matches WHERE high = $1),
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NOT NULL)
                """).first([.int(key)]) { row in
                ViewerStats(
                    viewer: viewer, decided: try row.int(0), likesGiven: try row.int(1), superlikesGiven: try row.int(2),
                    hatesGiven: try row.int(3), likesReceived: try row.int(4), superlikesReceived: try row.int(5),
                    matches: try row.int(6), undone: try row.int(7))
            }!
        }
    }
}
