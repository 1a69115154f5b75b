extension SQLDatabase {
    /// The ranking's row of the profile with external id `id` (`why` and the
    /// feed's reasons read it): nil when there is no such profile, all zero
    /// and never when it has not acted or been dealt yet.
    public func rankStats(id: String) throws -> Discovery.RankStats? {
        try read {
            guard let key = try profileKey(id: id) else { return nil }
            return try Discovery.RankStats.read(key: key, on: executor)
        }
    }
}

extension Discovery.RankStats {
    /// The ranking's row of the profile with internal key `key`, on any
    /// backend's connection (both feeds read the viewer's with it): all zero
    /// and never when it has none; with its fitted appeal and generosity and
    /// the fit's mean (`rank_fit`, `rank_fit_mean`'s one row), in the same
    /// statement.
    public static func read(key: Int, on executor: some SQLExecutor) throws -> Self {
        try executor.first(
            Discovery.RankStats.self,
            """
            SELECT r.given, r.given_likes, r.received, r.received_likes, r.last_active_at, r.dealt_since, r.dealt,
                   r.dealt_total, f.appeal, f.generosity, m.mean AS fit_mean
            FROM rank_fit_mean AS m
            LEFT JOIN rank_stats AS r ON r.profile = $1
            LEFT JOIN rank_fit AS f ON f.profile = $1
            """, [.int(key)]) ?? Self()
    }
}

extension SQLDialect {
    /// Fills `rank_stats` from the ledger as it stands, for every profile
    /// that acted or was decided about: the standing decisions it made (and
    /// the likes among them), those it received, and its last act (its
    /// newest decision or undo); nothing dealt yet. The schema upgrade that
    /// brought the table runs it once, on either backend.
    public var rankStatsFromTheLedger: String {
        """
        INSERT INTO rank_stats (profile, given, given_likes, received, received_likes, last_active_at)
        SELECT p.key,
               (SELECT count(*) FROM decisions AS d WHERE d.viewer = p.key AND d.undone_at IS NULL),
               (SELECT count(*) FROM decisions AS d WHERE d.viewer = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
               (SELECT count(*) FROM decisions AS d WHERE d.profile = p.key AND d.undone_at IS NULL),
               (SELECT count(*) FROM decisions AS d WHERE d.profile = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
               (SELECT max(\(greatest)(d.decided_at, coalesce(d.undone_at, ''))) FROM decisions AS d WHERE d.viewer = p.key)
        FROM profiles AS p
        WHERE EXISTS (SELECT 1 FROM decisions AS d WHERE d.viewer = p.key)
           OR EXISTS (SELECT 1 FROM decisions AS d WHERE d.profile = p.key);

        """
    }
}
