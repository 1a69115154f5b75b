import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// A version-1 database, made with the first release's schema text
/// (`SchemaV1Fixture`), opens, migrates to the current version (2, then 3)
/// in one transaction and loses nothing; the result has exactly the objects
/// a new database has.
@Suite struct SchemaMigrationTests {
    let folder = TemporaryFolder()

    /// A v1 file holding two profiles, three decisions (one undone), a match,
    /// a cursor and a setting, written by SQLite alone.
    func versionOneFile() throws -> String {
        let path = folder.path + "/v1.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(SchemaV1Fixture.sql)
        try connection.execute(
            """
            INSERT INTO profiles (key, id, name, age, gender, city, bio, photos, interests)
            VALUES (1, 'a', 'Ana', 30, 'f', 'Berlin', 'hi', '["p.jpg"]', '["tea"]'),
                   (2, 'b', 'Bo', 41, NULL, NULL, NULL, '[]', '[]'),
                   (3, 'c', 'Cy', 25, 'm', NULL, NULL, '[]', '[]');
            INSERT INTO decisions (key, viewer, profile, decision, via, decided_at, undone_at)
            VALUES (1, 1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z', NULL),
                   (2, 2, 1, 'superlike', 'button', '2026-11-20T11:00:00.000Z', NULL),
                   (3, 1, 3, 'hate', 'detail', '2026-11-20T12:00:00.000Z', '2026-11-20T12:00:01.000Z');
            INSERT INTO matches (low, high, matched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z');
            INSERT INTO feed_cursors VALUES (1, 3);
            INSERT INTO settings VALUES ('last_viewer', 'a');
            """)
        #expect(try connection.scalarInt("PRAGMA user_version") == 1)
        return path
    }

    @Test func versionOneMigratesLosingNothing() throws {
        let path = try versionOneFile()
        let store = try SQLiteStore(path: path)
        let c = store.connection
        #expect(try c.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(try c.scalarInt("PRAGMA application_id") == 1398229328)
        // Every v1 value, as it was.
        let profiles = try c.statement(
            "SELECT key, id, name, age, gender, city, bio, photos, interests FROM profiles ORDER BY key"
        )
        .bind().map { row in (0..<9).map { row.isNull($0) ? "NULL" : row.text($0) }.joined(separator: "|") }
        #expect(
            profiles == [
                "1|a|Ana|30|f|Berlin|hi|[\"p.jpg\"]|[\"tea\"]", "2|b|Bo|41|NULL|NULL|NULL|[]|[]",
                "3|c|Cy|25|m|NULL|NULL|[]|[]",
            ])
        let decisions = try c.statement(
            "SELECT key, viewer, profile, decision, via, decided_at, coalesce(undone_at, '-') FROM decisions ORDER BY key"
        )
        .bind().map { row in (0..<7).map { row.text($0) }.joined(separator: "|") }
        #expect(
            decisions == [
                "1|1|2|like|drag|2026-11-20T10:00:00.000Z|-",
                "2|2|1|superlike|button|2026-11-20T11:00:00.000Z|-",
                "3|1|3|hate|detail|2026-11-20T12:00:00.000Z|2026-11-20T12:00:01.000Z",
            ])
        #expect(try store.matches(viewer: "a").map(\.profile) == ["b"])
        #expect(try c.scalarInt("SELECT after_key FROM feed_cursors WHERE viewer = 1") == 3)
        #expect(try store.lastViewer() == "a")
        // The new columns hold "no preference".
        let ana = try #require(try store.profile(id: "a"))
        #expect(ana.location == nil && ana.preferences == Preferences())
        // Version 3: the ranking's counts, worked out by hand from the three
        // decisions (the hate undone counts for nobody, but its undo is Ana's last act).
        #expect(
            try Self.rankStats(c) == [
                "1|1|1|1|1|2026-11-20T12:00:01.000Z", "2|1|1|1|1|2026-11-20T11:00:00.000Z", "3|0|0|0|0|-",
            ])
        // And the new rules hold: 'import' is a way of deciding, blocks work.
        _ = try store.record(viewer: "c", profile: "a", decision: .like, via: .import)
        // The triggers keep the counts from now on.
        let kept = try Self.rankStats(c)
        #expect(kept[0].hasPrefix("1|1|1|2|2|") && kept[2].hasPrefix("3|1|1|0|0|"), "\(kept)")
        try store.block(viewer: "a", profile: "b")
        #expect(try store.matches(viewer: "a").isEmpty)
        #expect(try c.scalarInt("PRAGMA foreign_key_check") == nil)
        #expect(try c.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
    }

    /// The migrated file has the same tables, columns, indexes, triggers and
    /// views as one made from schema.sql today.
    @Test func migratedSchemaEqualsANewOne() throws {
        let migrated = try SQLiteStore(path: try versionOneFile()).connection
        let fresh = try SQLiteStore(path: folder.path + "/new.sqlite").connection
        #expect(try Self.shape(migrated) == Self.shape(fresh))
    }

    /// rank_stats as profile|given|given_likes|received|received_likes|last_active_at.
    static func rankStats(_ c: SQLiteConnection) throws -> [String] {
        try c.statement(
            """
            SELECT profile, given, given_likes, received, received_likes, coalesce(last_active_at, '-')
            FROM rank_stats ORDER BY profile
            """
        ).bind().map { row in (0..<6).map { row.text($0) }.joined(separator: "|") }
    }

    static func shape(_ c: SQLiteConnection) throws -> [String] {
        var lines: [String] = []
        let objects = try c.statement(
            """
            SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
            """
        ).bind().map { ($0.text(0), $0.text(1), $0.text(2), $0.text(3)) }
        for (type, name, table, sql) in objects {
            switch type {
            case "table":
                lines.append("table \(name)")
                lines += try c.statement("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_xinfo(?1)")
                    .bind(.text(name)).map { row in "  " + (0..<5).map { row.text($0) }.joined(separator: " ") }
            case "index":
                let columns = try c.statement("SELECT name FROM pragma_index_info(?1)").bind(.text(name)).map {
                    $0.text(0)
                }
                // Partial indexes: the WHERE clause matters too.
                let condition = sql.range(of: " WHERE ").map { String(sql[$0.upperBound...]) } ?? ""
                lines.append("index \(name) on \(table) \(columns) \(condition)")
            default:
                lines.append("\(type) \(name) on \(table): \(sql)")
            }
        }
        return lines
    }

    /// Each new profile column refuses what schema.sql's CHECKs refuse, in
    /// a migrated file as in a new one.
    @Test(arguments: [
        "lat = 91", "lat = 1", "age_min = 50, age_max = 40", "max_km = 0", "seeking = 'f;'", "age_max = 121",
    ])
    func migratedChecksRefuse(_ assignment: String) throws {
        for path in [try versionOneFile(), folder.path + "/new.sqlite"] {
            let store = try SQLiteStore(path: path)
            try store.upsert(Profile(id: "z", name: "Z", age: 30))
            #expect(throws: SQLiteError.self, "\(assignment) in \(path)") {
                try store.connection.statement("UPDATE profiles SET \(assignment) WHERE id = 'z'").bind().run()
            }
        }
    }
}
