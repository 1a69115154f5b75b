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
    static var migration: String {
        [
            Schema.statement("CREATE TABLE rank_stats "),
            Schema.statement("CREATE INDEX rank_stats_active "),
            SQLDialect.sqlite.rankStatsFromTheLedger,
            Schema.statement("CREATE TRIGGER rank_stats_decided "),
            Schema.statement("CREATE TRIGGER rank_stats_undone "),
            "PRAGMA user_version = 3;\n",
        ].joined()
    }
}
