import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeSQLite
@testable import SwipeStore

/// A version-2 database (made with that release's schema text,
/// `SchemaV2Fixture`) opens, migrates to version 4 (conversations) in one
/// transaction and loses nothing; the result has exactly the objects a new
/// database has, and its matches converse.
@Suite struct ConversationMigrationTests {
    let folder = TemporaryFolder()

    /// A v2 file with three profiles, a standing match, an ended one, a
    /// block and a setting, written by SQLite alone.
    func versionTwoFile() throws -> String {
        let path = folder.path + "/v2.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(SchemaV2Fixture.sql)
        try connection.execute(
            """
            INSERT INTO profiles (key, id, name, age, gender) VALUES (1, 'a', 'Ana', 30, 'f'), (2, 'b', 'Bo', 41, 'm'),
                (3, 'c', 'Cy', 25, 'm');
            INSERT INTO decisions (key, viewer, profile, decision, via, decided_at) VALUES
                (1, 1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z'), (2, 2, 1, 'superlike', 'button', '2026-11-20T11:00:00.000Z'),
                (3, 1, 3, 'like', 'drag', '2026-11-20T10:00:00.000Z'), (4, 3, 1, 'like', 'drag', '2026-11-20T12:00:00.000Z');
            INSERT INTO matches (low, high, matched_at, unmatched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z', NULL),
                (1, 3, '2026-11-20T12:00:00.000Z', '2026-11-21T12:00:00.000Z');
            INSERT INTO blocks VALUES (3, 1, '2026-11-21T12:00:00.000Z');
            INSERT INTO settings VALUES ('rule.likes-per-day', '7');
            """)
        #expect(try connection.scalarInt("PRAGMA user_version") == 2)
        return path
    }

    @Test func versionTwoMigratesLosingNothing() throws {
        let store = try SQLiteStore(path: try versionTwoFile())
        let c = store.connection
        #expect(try c.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(Schema.version == 8)
        #expect(try store.matches(viewer: "a").map(\.profile) == ["b"])
        #expect(try store.rules().likesPerDay == 7)
        #expect(
            try c.scalarInt("SELECT count(*) FROM matches WHERE expires_at IS NULL") == 2,
            "old matches have no deadline")
        // The old match converses; the ended one does not.
        _ = try store.send(MessageSend(viewer: "b", profile: "a", text: "hi", clientID: "1"))
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "b")).map(\.text) == ["hi"])
        #expect(throws: StoreError.messageRefused(.ended(profile: "c", at: "2026-11-21T12:00:00.000Z"))) {
            _ = try store.send(MessageSend(viewer: "a", profile: "c", text: "hi", clientID: "2"))
        }
        #expect(try c.scalarInt("PRAGMA foreign_key_check") == nil)
        #expect(try c.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let migrated = try SQLiteStore(path: try versionTwoFile()).connection
        let fresh = try SQLiteStore(path: folder.path + "/new.sqlite").connection
        #expect(try SchemaMigrationTests.shape(migrated) == SchemaMigrationTests.shape(fresh))
        #expect(try SchemaMigrationTests.shape(fresh).contains { $0.hasPrefix("table messages") })
    }

    /// A failing step leaves the file at version 2, not a byte of the step applied.
    @Test func aFailedMigrationLeavesVersionTwo() throws {
        let path = try versionTwoFile()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE messages (x INTEGER)")  // the step's CREATE TABLE must fail
        #expect(throws: (any Error).self) { _ = try SQLiteStore(path: path) }
        #expect(try connection.scalarInt("PRAGMA user_version") == 2)
        #expect(
            try connection.scalarInt("SELECT count(*) FROM pragma_table_info('matches') WHERE name = 'expires_at'") == 0
        )
    }

    /// The messages table refuses what the rules never write, whoever writes.
    @Test(arguments: [
        "(1, 2, 1, 1, 2, 'c', '', '2026-11-20T11:00:00.000Z')",  // empty body
        "(1, 2, 1, 1, 1, 'c', 'hi', '2026-11-20T11:00:00.000Z')",  // to oneself
        "(1, 3, 1, 1, 3, 'c', 'hi', '2026-11-20T11:00:00.000Z')",  // no match row for the pair
        "(1, 2, 0, 1, 2, 'c', 'hi', '2026-11-20T11:00:00.000Z')",  // seq 0
        "(1, 2, 1, 1, 2, 'c', 'hi', 'yesterday')",
    ])
    func theTableRefusesWhatTheRulesNeverWrite(_ values: String) throws {
        let store = try SQLiteStore(path: folder.path + "/new.sqlite")
        for (id, name) in [("a", "A"), ("b", "B"), ("c", "C")] {
            try store.upsert(Profile(id: id, name: name, age: 30))
        }
        try store.connection.execute(
            "INSERT INTO matches (low, high, matched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z')")
        #expect(throws: SQLiteError.self) {
            try store.connection.execute(
                "INSERT INTO messages (low, high, seq, sender, recipient, client_id, body, sent_at) VALUES \(values)")
        }
    }
}
