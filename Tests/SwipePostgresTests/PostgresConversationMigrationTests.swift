import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A version-2 PostgreSQL database (made with that release's
/// schema.postgres.sql, `PostgresSchemaV2Fixture`) migrates to version 4
/// (conversations) when a writer opens it, loses nothing, ends with the
/// columns and indexes a new database has, and converses. A reader is
/// refused with the versions named, nothing changed.
@Suite(.needsPostgres) struct PostgresConversationMigrationTests {
    let old: PostgresTestDatabase
    let fresh: PostgresTestDatabase
    init() throws {
        old = try PostgresTestDatabase()
        fresh = try PostgresTestDatabase()
    }

    func versionTwo() throws -> PGConnection {
        let connection = try old.connect()
        try connection.execute(PostgresSchemaV2Fixture.sql)
        try connection.execute(
            """
            INSERT INTO profiles (key, id, name, age, gender) VALUES (1, 'a', 'Ana', 30, 'f'), (2, 'b', 'Bo', 41, 'm'),
                (3, 'c', 'Cy', 25, 'm');
            INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES
                (1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z'), (2, 1, 'superlike', 'button', '2026-11-20T11:00:00.000Z');
            INSERT INTO matches (low, high, matched_at, unmatched_at) VALUES (1, 2, '2026-11-20T11:00:00.000Z', NULL),
                (1, 3, '2026-11-20T12:00:00.000Z', '2026-11-21T12:00:00.000Z');
            INSERT INTO settings VALUES ('rule.likes-per-day', '7');
            """)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 2)
        return connection
    }

    /// Every column (table, name, type, nullability) and index definition.
    static func shape(_ connection: PGConnection) throws -> [String] {
        let columns = try connection.query(
            """
            SELECT table_name::text || '.' || column_name::text || ' ' || data_type::text || ' ' || is_nullable::text
            FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name
            """
        ).map { try $0.text(0) }
        let indexes = try connection.query(
            """
            SELECT indexdef::text FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname
            """
        ).map { try $0.text(0) }
        return columns + indexes
    }

    @Test func versionTwoMigratesLosingNothing() throws {
        let connection = try versionTwo()
        let store = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
        #expect(try store.matches(viewer: "a").map(\.profile) == ["b"])
        #expect(try store.rules().likesPerDay == 7)
        _ = try store.send(MessageSend(viewer: "b", profile: "a", text: "hi", clientID: "1"))
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "b")).map(\.text) == ["hi"])
        #expect(throws: StoreError.messageRefused(.ended(profile: "c", at: "2026-11-21T12:00:00.000Z"))) {
            _ = try store.send(MessageSend(viewer: "a", profile: "c", text: "hi", clientID: "2"))
        }
        // Opening again finds nothing left to do.
        _ = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let connection = try versionTwo()
        _ = try PostgresStore(uri: old.uri, create: false)
        let made = try fresh.connect()
        try made.execute(SchemaTests.postgresSchema)
        let migrated = try Self.shape(connection), new = try Self.shape(made)
        #expect(migrated == new)
        #expect(new.contains { $0.hasPrefix("messages.body text") })
        #expect(new.contains { $0.hasPrefix("matches.expires_at text") })
    }

    @Test func aReaderIsRefusedAndChangesNothing() throws {
        let connection = try versionTwo()
        #expect(
            throws: DatabaseOpenError.olderSchema(
                path: PostgresURI.redacted(old.uri), found: 2, supported: PostgresSchema.version)
        ) {
            _ = try PostgresStore(uri: old.uri, create: false, readOnly: true)
        }
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 2)
        #expect(try connection.scalarInt("SELECT count(*) FROM pg_class WHERE relname = 'messages'") == 0)
    }
}
