/// Version 3 → 4: conversations (Documentation/REPL.md, "Conversations").
///
/// - matches gain expires_at (ALTER TABLE ADD COLUMN: every existing match
///   takes NULL, no deadline);
/// - messages and its indexes are new.
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// so the two cannot drift.
enum SchemaV4 {
    static var migration: String {
        ([
            "ALTER TABLE matches ADD COLUMN expires_at TEXT;\n",
            Schema.statement("CREATE TABLE messages "),
            Schema.statement("CREATE UNIQUE INDEX messages_order "),
            Schema.statement("CREATE UNIQUE INDEX messages_client "),
            Schema.statement("CREATE INDEX messages_unread "),
            Schema.statement("CREATE INDEX messages_first "),
            "PRAGMA user_version = 4;\n",
        ]).joined()
    }
}
