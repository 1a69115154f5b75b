import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeSQLite
@testable import SwipeStore

/// A version-4 database (made with that release's schema text,
/// `SchemaV4Fixture`) opens, migrates to version 5 (photos) in one
/// transaction and loses nothing: its https photo URLs stay as they were,
/// its conversations go on, and a photo can be stored; the result has
/// exactly the objects a new database has.
@Suite struct PhotoMigrationTests {
    let folder = TemporaryFolder()

    func versionFourFile() throws -> String {
        let path = folder.path + "/v4.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(SchemaV4Fixture.sql)
        try connection.execute(
            """
            INSERT INTO profiles (key, id, name, age, photos) VALUES (1, 'a', 'Ana', 30, '["https://example.org/a.jpg"]'),
                (2, 'b', 'Bo', 41, '[]');
            INSERT INTO decisions (key, viewer, profile, decision, via, decided_at) VALUES
                (1, 1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z'), (2, 2, 1, 'like', 'drag', '2026-11-20T11:00:00.000Z');
            INSERT INTO matches (low, high, matched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z');
            INSERT INTO messages (low, high, seq, sender, recipient, client_id, body, sent_at)
                VALUES (1, 2, 1, 1, 2, 'c1', 'hello', '2026-11-20T12:00:00.000Z');
            """)
        #expect(try connection.scalarInt("PRAGMA user_version") == 4)
        return path
    }

    @Test func versionFourMigratesLosingNothing() throws {
        let store = try SQLiteStore(path: try versionFourFile())
        #expect(try store.connection.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(try store.profile(id: "a")?.photos == ["https://example.org/a.jpg"])
        #expect(try store.messages(MessageQuery(viewer: "b", profile: "a")).map(\.text) == ["hello"])
        let profile = try store.addPhoto(viewer: "b", .bytes(try PhotoBytes(checking: TestImages.png())), at: nil)
        #expect(profile.photos.count == 1 && profile.photos[0].hasPrefix("/photos/"))
        #expect(try store.connection.scalarInt("PRAGMA foreign_key_check") == nil)
        #expect(try store.connection.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let migrated = try SQLiteStore(path: try versionFourFile()).connection
        let fresh = try SQLiteStore(path: folder.path + "/new.sqlite").connection
        #expect(try SchemaMigrationTests.shape(migrated) == SchemaMigrationTests.shape(fresh))
        #expect(try SchemaMigrationTests.shape(fresh).contains("table photos"))
    }

    /// A failing step leaves the file at version 4, not a byte of it applied.
    @Test func aFailedMigrationLeavesVersionFour() throws {
        let path = try versionFourFile()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE INDEX photos_content ON profiles (name)")  // the step's index must fail
        #expect(throws: (any Error).self) { _ = try SQLiteStore(path: path) }
        #expect(try connection.scalarInt("PRAGMA user_version") == 4)
        #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'photos'") == 0)
    }

    /// A reader cannot migrate: refused naming both versions, nothing changed.
    @Test func aReaderIsRefused() throws {
        let path = try versionFourFile()
        #expect(throws: DatabaseOpenError.olderSchema(path: path, found: 4, supported: Schema.version)) {
            _ = try SQLiteStore(path: path, create: false, readOnly: true)
        }
    }

    /// The table refuses what the rules never write, whoever writes.
    @Test func theTableRefusesWhatTheRulesNeverWrite() throws {
        let store = try SQLiteStore(path: folder.path + "/table.sqlite")
        try store.upsert(Profile(id: "ana", name: "Ana", age: 30))
        let good =
            "('\(String(repeating: "a", count: 32))', 1, 'image/png', x'89', '\(String(repeating: "b", count: 64))', 1, '2026-11-20T11:00:00.000Z')"
        try store.connection.execute(
            "INSERT INTO photos (id, profile, media_type, bytes, sha256, byte_size, created_at) VALUES \(good)")
        for bad in [
            "('\(String(repeating: "c", count: 31))', 1, 'image/png', x'89', '\(String(repeating: "b", count: 64))', 1, '2026-11-20T11:00:00.000Z')",
            "('\(String(repeating: "c", count: 32))', 1, 'image/gif', x'89', '\(String(repeating: "b", count: 64))', 1, '2026-11-20T11:00:00.000Z')",
            "('\(String(repeating: "c", count: 32))', 1, 'image/png', x'89', '\(String(repeating: "b", count: 64))', 2, '2026-11-20T11:00:00.000Z')",
            "('\(String(repeating: "c", count: 32))', 1, 'image/png', 'text', '\(String(repeating: "b", count: 64))', 4, '2026-11-20T11:00:00.000Z')",
            "('\(String(repeating: "c", count: 32))', 1, 'image/png', x'89', '\(String(repeating: "b", count: 64))', 1, 'now')",
            "('\(String(repeating: "c", count: 32))', 9, 'image/png', x'89', '\(String(repeating: "d", count: 64))', 1, '2026-11-20T11:00:00.000Z')",
            "('\(String(repeating: "c", count: 32))', 1, 'image/png', x'89', '\(String(repeating: "b", count: 64))', 1, '2026-11-20T11:00:00.000Z')",
        ] {
            #expect(throws: SQLiteError.self, "\(bad)") {
                try store.connection.execute(
                    "INSERT INTO photos (id, profile, media_type, bytes, sha256, byte_size, created_at) VALUES \(bad)")
            }
        }
    }
}
