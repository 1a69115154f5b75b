/// Version 7 → 8: the ranking's fit (README "Ranking").
///
/// - rank_fit (a profile's fitted appeal and generosity) and rank_fit_mean
///   (the fit's one row, never fitted yet) are new: two empty tables, so
///   the step is instant however large the history; the feed ranks by the
///   like rates until the first refit (`SQLDatabase.refitRanking`).
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// so the two cannot drift.
enum SchemaV8 {
    static var migration: String {
        [
            Schema.statement("CREATE TABLE rank_fit "),
            Schema.statement("CREATE TABLE rank_fit_mean "),
            Schema.statement("INSERT INTO rank_fit_mean "),
            "PRAGMA user_version = 8;\n",
        ].joined()
    }
}
