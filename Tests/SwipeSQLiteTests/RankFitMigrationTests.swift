import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeSQLite
@testable import SwipeStore

/// A version-7 database (the version-6 fixture with its history, brought to
/// 7 by that step) opens and migrates to version 8: the ranking's fit
/// (rank_fit, rank_fit_mean) is added, empty and never fitted, so the feed
/// ranks by the like rates until a refit, which then reads the history it
/// already holds.
@Suite struct RankFitMigrationTests {
    let folder = TemporaryFolder()

    func versionSevenFile() throws -> String {
        let path = folder.path + "/v7.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(SchemaV6Fixture.sql)
        try connection.execute(AnalystViewsSample.inserts)
        try connection.execute(SchemaV7.migration)
        #expect(try connection.scalarInt("PRAGMA user_version") == 7)
        #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'rank_fit'") == 0)
        return path
    }

    @Test func versionSevenGainsTheFitNeverFitted() throws {
        let store = try SQLiteStore(path: try versionSevenFile())
        let c = store.connection
        #expect(try c.scalarInt("PRAGMA user_version") == 8)
        try RankFitUpgrade.expectNeverFittedThenFitted(store)
        #expect(try store.rankStats(id: "a")?.fitMean != nil)
        #expect(try c.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let migrated = try SQLiteStore(path: try versionSevenFile()).connection
        let fresh = try SQLiteStore(path: folder.path + "/new.sqlite").connection
        #expect(try SchemaMigrationTests.shape(migrated) == SchemaMigrationTests.shape(fresh))
    }

    /// Erasing a person takes their fitted row with them, and a refit after
    /// that never sees them (their decisions went too).
    @Test func erasingAPersonTakesTheirFit() throws {
        let store = try SQLiteStore(path: try versionSevenFile())
        try store.refitRanking()
        #expect(try store.connection.scalarInt("SELECT count(*) FROM rank_fit WHERE profile = 4") == 1)
        _ = try store.erase(viewer: "d", at: nil)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM rank_fit WHERE profile = 4") == 0)
        try store.refitRanking()
        #expect(try store.connection.scalarInt("SELECT count(*) FROM rank_fit WHERE profile = 4") == 0)
    }
}
