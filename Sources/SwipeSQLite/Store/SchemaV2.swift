import Foundation
import SwipeStore

/// Version 1 → 2: discovery (README "Discovery").
///
/// - profiles gain lat, lon, seeking, age_min, age_max, max_km (ALTER TABLE
///   ADD COLUMN: every existing row takes the defaults, which mean "no
///   preference"), and the index of places `profiles_cell`;
/// - decisions is rebuilt, because its `via` CHECK now admits 'import' and a
///   CHECK cannot be altered in place: the rows are copied with their keys,
///   and its indexes (decisions_history now covers what the history reads,
///   decisions_quota is new) and the view over it are made again;
/// - matches gain unmatched_at; blocks and reports are new;
/// - the file gets swipe's application_id.
///
/// New objects come from schema.sql's own statements (`Schema.statement`),
/// and the new columns from its CREATE TABLE profiles, so the two cannot drift.
enum SchemaV2 {
    /// The new profile columns' definitions, as schema.sql writes them.
    static let profileColumns = ["lat", "lon", "seeking", "age_min", "age_max", "max_km"].map(columnDefinition)

    /// Column `name`'s definition in schema.sql's CREATE TABLE profiles: its
    /// line and the more deeply indented lines that continue it, without the
    /// comma that separates it from the next.
    static func columnDefinition(_ name: String) -> String {
        let lines = Schema.statement("CREATE TABLE profiles ").split(separator: "\n").map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("    \(name) ") }) else {
            preconditionFailure("schema.sql's profiles has no column \(name)")
        }
        var definition = [lines[first]]
        for line in lines[(first + 1)...] {
            guard line.hasPrefix("        ") else { break }
            definition.append(line)
        }
        var text = definition.joined(separator: "\n").trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(",") { text.removeLast() }
        return text
    }

    /// schema.sql's index of places, for the importer that drops it while it
    /// loads an empty table and makes it again at the end.
    static let placesIndex = Schema.statement("CREATE INDEX profiles_cell ")

    static var migration: String {
        let newDecisions = Schema.statement("CREATE TABLE decisions ")
            .replacingOccurrences(of: "CREATE TABLE decisions ", with: "CREATE TABLE decisions_v2 ")
        return
            (profileColumns.map { "ALTER TABLE profiles ADD COLUMN \($0);\n" }
            + [
                placesIndex,
                "DROP VIEW missed_matches;\n",
                newDecisions,
                """
                INSERT INTO decisions_v2 (key, viewer, profile, decision, via, decided_at, undone_at)
                SELECT key, viewer, profile, decision, via, decided_at, undone_at FROM decisions;
                DROP TABLE decisions;
                ALTER TABLE decisions_v2 RENAME TO decisions;\n
                """,
                Schema.statement("CREATE UNIQUE INDEX decisions_standing "),
                Schema.statement("CREATE INDEX decisions_received "),
                Schema.statement("CREATE INDEX decisions_history "),
                Schema.statement("CREATE INDEX decisions_likers "),
                Schema.statement("CREATE INDEX decisions_quota "),
                Schema.statement("CREATE VIEW missed_matches "),
                "ALTER TABLE matches ADD COLUMN unmatched_at TEXT;\n",
                Schema.statement("CREATE TABLE liker_cursors "),
                Schema.statement("CREATE TABLE blocks "),
                Schema.statement("CREATE INDEX blocks_by_blocked "),
                Schema.statement("CREATE TABLE reports "),
                "PRAGMA application_id = 1398229328;\nPRAGMA user_version = 2;\n",
            ]).joined()
    }
}
