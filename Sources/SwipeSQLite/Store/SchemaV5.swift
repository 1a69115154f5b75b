/// Version 4 → 5: photos (Documentation/Photos.md).
///
/// - photos and its index are new; no profile has a stored photo yet, and
///   every `photos` list keeps its URLs as they are.
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// so the two cannot drift.
enum SchemaV5 {
    static var migration: String {
        [
            Schema.statement("CREATE TABLE photos "),
            Schema.statement("CREATE UNIQUE INDEX photos_content "),
            "PRAGMA user_version = 5;\n",
        ].joined()
    }
}
