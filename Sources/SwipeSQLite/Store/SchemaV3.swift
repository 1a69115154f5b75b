import SwipeStore

/// Version 2 → 3: ranking (README "Ranking").
///
/// - rank_stats is new, with its index of the most recently active;
/// - it is filled from the ledger as it stands: per profile the standing
///   decisions it made (and the likes among them), those it received, and
///   its last act (its newest decision or undo); nothing was dealt yet;
/// - the triggers that keep it in step with decisions from then on.
///
/// Every object comes from schema.sql's own statements (`Schema.statement`).
enum SchemaV3 {
    /// The counters as the ledger gives them, for every profile that acted
    /// or was decided about. Also what an import rebuilds nothing from: the
    /// triggers keep up with every row it writes.
    static let fill = """
        INSERT INTO rank_stats (profile, given, given_likes, received, received_likes, last_active_at)
        SELECT p.key,
               (SELECT count(*) FROM decisions AS d WHERE d.viewer = p.key AND d.undone_at IS NULL),
               (SELECT count(*) FROM decisions AS d WHERE d.viewer = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
               (SELECT count(*) FROM decisions AS d WHERE d.profile = p.key AND d.undone_at IS NULL),
               (SELECT count(*) FROM decisions AS d WHERE d.profile = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
               (SELECT max(max(d.decided_at, coalesce(d.undone_at, ''))) FROM decisions AS d WHERE d.viewer = p.key)
        FROM profiles AS p
        WHERE EXISTS (SELECT 1 FROM decisions AS d WHERE d.viewer = p.key)
           OR EXISTS (SELECT 1 FROM decisions AS d WHERE d.profile = p.key);

        """

    static var migration: String {
        [
            Schema.statement("CREATE TABLE rank_stats "),
            Schema.statement("CREATE INDEX rank_stats_active "),
            fill,
            Schema.statement("CREATE TRIGGER rank_stats_decided "),
            Schema.statement("CREATE TRIGGER rank_stats_undone "),
            "PRAGMA user_version = 3;\n",
        ].joined()
    }
}
