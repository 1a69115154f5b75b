import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A version-4 PostgreSQL database (made with that release's
/// schema.postgres.sql, `PostgresSchemaV4Fixture`) migrates to version 5
/// (photos) when a writer opens it, loses nothing, ends with the columns and
/// indexes a new database has, and stores photos. A reader is refused.
@Suite(.needsPostgres) struct PostgresPhotoMigrationTests {
    let old: PostgresTestDatabase
    let fresh: PostgresTestDatabase
    init() throws {
        old = try PostgresTestDatabase()
        fresh = try PostgresTestDatabase()
    }

    func versionFour() throws -> PGConnection {
        let connection = try old.connect()
        try connection.execute(PostgresSchemaV4Fixture.sql)
        try connection.execute(
            """
            INSERT INTO profiles (key, id, name, age, photos) VALUES (1, 'a', 'Ana', 30, '["https://example.org/a.jpg"]'),
                (2, 'b', 'Bo', 41, '[]');
            INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES
                (1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z'), (2, 1, 'like', 'drag', '2026-11-20T11:00:00.000Z');
            INSERT INTO matches (low, high, matched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z');
            INSERT INTO messages (low, high, seq, sender, recipient, client_id, body, sent_at)
                VALUES (1, 2, 1, 1, 2, 'c1', 'hello', '2026-11-20T12:00:00.000Z');
            """)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 4)
        return connection
    }

    @Test func versionFourMigratesLosingNothing() throws {
        let connection = try versionFour()
        let store = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
        #expect(try store.profile(id: "a")?.photos == ["https://example.org/a.jpg"])
        #expect(try store.messages(MessageQuery(viewer: "b", profile: "a")).map(\.text) == ["hello"])
        let photo = try PhotoBytes(checking: TestImages.png())
        let profile = try store.addPhoto(viewer: "b", .bytes(photo), at: nil)
        guard case .stored(let id) = PhotoItem(profile.photos[0]) else {
            Issue.record("not stored: \(profile.photos)")
            return
        }
        #expect(try store.servedPhoto(id: id, viewer: "a", unlessSHA256: nil)?.bytes == photo.bytes)
        _ = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let connection = try versionFour()
        _ = try PostgresStore(uri: old.uri, create: false)
        let made = try fresh.connect()
        try made.execute(SchemaTests.postgresSchema)
        let migrated = try PostgresConversationMigrationTests.shape(connection)
        let new = try PostgresConversationMigrationTests.shape(made)
        #expect(migrated == new)
        #expect(new.contains { $0.hasPrefix("photos.bytes bytea") })
        let storage = try made.scalarText(
            "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'photos'::regclass AND attname = 'bytes'")
        #expect(storage == "e", "bytes are stored out of line, uncompressed")
        #expect(
            try connection.scalarText(
                "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'photos'::regclass AND attname = 'bytes'")
                == "e")
    }

    @Test func aReaderIsRefusedAndChangesNothing() throws {
        let connection = try versionFour()
        #expect(
            throws: DatabaseOpenError.olderSchema(
                path: PostgresURI.redacted(old.uri), found: 4, supported: PostgresSchema.version)
        ) {
            _ = try PostgresStore(uri: old.uri, create: false, readOnly: true)
        }
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 4)
        #expect(try connection.scalarInt("SELECT count(*) FROM pg_class WHERE relname = 'photos'") == 0)
    }
}
