/// Version 5 → 6: moderation (Documentation/Moderation.md).
///
/// - moderators, suspensions, warnings, flags, report_resolutions and the
///   append-only moderation_log are new, and empty (messages_by_sender
///   serves the rule messages-per-minute): nobody is a moderator,
///   suspended or warned, and every report stands open in the queue.
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// so the two cannot drift.
enum SchemaV6 {
    static var migration: String {
        [
            Schema.statement("CREATE TABLE moderators "),
            Schema.statement("CREATE TABLE suspensions "),
            Schema.statement("CREATE TABLE warnings "),
            Schema.statement("CREATE INDEX warnings_pending "),
            Schema.statement("CREATE TABLE flags "),
            Schema.statement("CREATE UNIQUE INDEX flags_open "),
            Schema.statement("CREATE TABLE report_resolutions "),
            Schema.statement("CREATE TABLE moderation_log "),
            Schema.statement("CREATE TRIGGER moderation_log_no_update "),
            Schema.statement("CREATE TRIGGER moderation_log_no_delete "),
            Schema.statement("CREATE INDEX messages_by_sender "),
            "PRAGMA user_version = 6;\n",
        ].joined()
    }
}
