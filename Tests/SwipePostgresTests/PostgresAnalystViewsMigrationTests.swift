import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A version-6 PostgreSQL database (made with that release's
/// schema.postgres.sql, `PostgresSchemaV6Fixture`) migrates to version 7
/// (the analysts' views) when a writer opens it, loses nothing, reads its
/// history through the views as `AnalystViewsSample` works it out by hand,
/// and ends with the columns, indexes and view definitions a new database
/// has. A reader is refused.
@Suite(.needsPostgres) struct PostgresAnalystViewsMigrationTests {
    let old: PostgresTestDatabase
    let fresh: PostgresTestDatabase
    init() throws {
        old = try PostgresTestDatabase()
        fresh = try PostgresTestDatabase()
    }

    func versionSix() throws -> PGConnection {
        let connection = try old.connect()
        try connection.execute(PostgresSchemaV6Fixture.sql)
        try connection.execute(AnalystViewsSample.inserts)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 6)
        return connection
    }

    static func lines(_ c: PGConnection, _ sql: String) throws -> [String] {
        try c.query(sql).map { try $0.text(0) }
    }

    /// The views' definitions as the server prints them back.
    static func views(_ c: PGConnection) throws -> [String] {
        try c.query(
            """
            SELECT viewname::text || ': ' || definition FROM pg_views
            WHERE schemaname = current_schema() ORDER BY viewname
            """
        ).map { try $0.text(0) }
    }

    @Test func versionSixMigratesAndTheViewsReadItsHistory() throws {
        let connection = try versionSix()
        let store = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
        #expect(try Self.lines(connection, AnalystViewsSample.decisionLogSQL) == AnalystViewsSample.decisionLog)
        #expect(try Self.lines(connection, AnalystViewsSample.matchHistorySQL) == AnalystViewsSample.matchHistory)
        #expect(try store.matches(viewer: "a").map(\.profile) == ["b"])
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "b")).map(\.text) == ["hi", "there", "hello"])
        _ = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let connection = try versionSix()
        _ = try PostgresStore(uri: old.uri, create: false)
        let made = try fresh.connect()
        try made.execute(SchemaTests.postgresSchema)
        #expect(
            try PostgresConversationMigrationTests.shape(connection) == PostgresConversationMigrationTests.shape(made))
        let views = try Self.views(made)
        #expect(try Self.views(connection) == views)
        #expect(views.map { $0.prefix { $0 != ":" } } == ["decision_log", "match_history", "missed_matches"])
        for (view, columns) in [
            ("decision_log", AnalystViewsSample.decisionLogColumns),
            ("match_history", AnalystViewsSample.matchHistoryColumns),
        ] {
            let got = try made.query(
                """
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
                """, .text(view)
            ).map { try $0.text(0) }
            #expect(got == columns, "\(view)")
        }
    }

    @Test func aReaderIsRefusedAndChangesNothing() throws {
        let connection = try versionSix()
        #expect(
            throws: DatabaseOpenError.olderSchema(
                path: PostgresURI.redacted(old.uri), found: 6, supported: PostgresSchema.version)
        ) {
            _ = try PostgresStore(uri: old.uri, create: false, readOnly: true)
        }
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 6)
        #expect(try connection.scalarInt("SELECT count(*) FROM pg_class WHERE relname = 'decision_log'") == 0)
    }
}
