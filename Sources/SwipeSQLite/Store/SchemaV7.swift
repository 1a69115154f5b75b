/// Version 6 → 7: views for analysts (Documentation/Insights.md, "Views for
/// analysts").
///
/// - decision_log and match_history are new views over the tables as they
///   are: nothing is copied or rewritten, so the step costs nothing however
///   large the history, and a version-6 file's history reads through them
///   at once.
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// so the two cannot drift.
enum SchemaV7 {
    static var migration: String {
        [
            Schema.statement("CREATE VIEW decision_log "),
            Schema.statement("CREATE VIEW match_history "),
            "PRAGMA user_version = 7;\n",
        ].joined()
    }
}
