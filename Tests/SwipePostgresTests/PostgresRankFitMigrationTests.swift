import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipePostgres

/// A version-7 PostgreSQL database (the version-6 fixture with its history,
/// brought to 7 by that step) migrates to version 8 when a writer opens it:
/// the ranking's fit (rank_fit, rank_fit_mean) is added, empty and never
/// fitted, and the schema ends as a new database's; a refit then reads the
/// history it holds, as SQLite's does.
@Suite(.needsPostgres) struct PostgresRankFitMigrationTests {
    let old: PostgresTestDatabase
    let fresh: PostgresTestDatabase
    init() throws {
        old = try PostgresTestDatabase()
        fresh = try PostgresTestDatabase()
    }

    func versionSeven() throws -> PGConnection {
        let connection = try old.connect()
        try connection.execute(PostgresSchemaV6Fixture.sql)
        try connection.execute(AnalystViewsSample.inserts)
        try connection.execute(PostgresSchema.migrationToV7)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 7)
        #expect(try connection.scalarInt("SELECT count(*) FROM pg_class WHERE relname = 'rank_fit'") == 0)
        return connection
    }

    @Test func versionSevenGainsTheFitNeverFitted() throws {
        let connection = try versionSeven()
        let store = try PostgresStore(uri: old.uri, create: false)
        #expect(try connection.scalarInt("SELECT version FROM schema_version") == 8)
        try RankFitUpgrade.expectNeverFittedThenFitted(store)
        #expect(try store.rankStats(id: "a")?.fitMean != nil)
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let connection = try versionSeven()
        _ = try PostgresStore(uri: old.uri, create: false)
        let made = try fresh.connect()
        try made.execute(SchemaTests.postgresSchema)
        #expect(
            try PostgresConversationMigrationTests.shape(connection) == PostgresConversationMigrationTests.shape(made))
    }
}
