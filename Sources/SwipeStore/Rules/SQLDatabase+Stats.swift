/// Counts of the whole database and of one viewer.
extension SQLDatabase {
    /// Counts of profiles, decisions (standing ones by kind), matches.
    public func stats() throws -> StoreStats {
        try read {
            try executor.first(
                StoreStats.self,
                """
                SELECT
                  (SELECT count(*) FROM profiles) AS profiles,
                  (SELECT count(DISTINCT viewer) FROM decisions) AS viewers,
                  (SELECT count(*) FROM decisions) AS decisions,
                  (SELECT count(*) FROM decisions WHERE undone_at IS NOT NULL) AS undone,
                  (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'like') AS likes,
                  (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'hate') AS hates,
                  (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'superlike') AS superlikes,
                  (SELECT count(*) FROM matches WHERE unmatched_at IS NULL) AS matches,
                  (SELECT count(*) FROM missed_matches) AS missed_matches
                """, [])!
        }
    }

    /// `viewer`'s counts (index searches on the viewer's and the received
    /// side); `matches` counts the viewer's match rows, ended ones included.
    ///
    /// - Throws: `StoreError.unknownProfile`.
    public func stats(viewer: String) throws -> ViewerStats {
        try read {
            let key = try requireKey(viewer)
            return try executor.first(
                """
                SELECT
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL) AS decided,
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'like') AS likes_given,
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'superlike')
                    AS superlikes_given,
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision = 'hate') AS hates_given,
                  (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL AND decision = 'like')
                    AS likes_received,
                  (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL AND decision = 'superlike')
                    AS superlikes_received,
                  (SELECT count(*) FROM matches WHERE low = $1) + (SELECT count(*) FROM matches WHERE high = $1) AS matches,
                  (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NOT NULL) AS undone
                """, [.int(key)]
            ) { row in
                ViewerStats(
                    viewer: viewer, decided: try row.int("decided"), likesGiven: try row.int("likes_given"),
                    superlikesGiven: try row.int("superlikes_given"), hatesGiven: try row.int("hates_given"),
                    likesReceived: try row.int("likes_received"),
                    superlikesReceived: try row.int("superlikes_received"),
                    matches: try row.int("matches"), undone: try row.int("undone"))
            }!
        }
    }
}

extension StoreStats: FetchableRow {
    public init(row: some SQLRow) throws {
        self.init(
            profiles: try row.int("profiles"), viewers: try row.int("viewers"), decisions: try row.int("decisions"),
            undone: try row.int("undone"), likes: try row.int("likes"), hates: try row.int("hates"),
            superlikes: try row.int("superlikes"), matches: try row.int("matches"),
            missedMatches: try row.int("missed_matches"))
    }
}
