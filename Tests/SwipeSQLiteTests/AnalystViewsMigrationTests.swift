import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeSQLite
@testable import SwipeStore

/// A version-6 database (made with that release's schema text,
/// `SchemaV6Fixture`) opens, migrates to version 7 (the analysts' views
/// decision_log and match_history) and loses nothing; the views read its
/// history as `AnalystViewsSample` works it out by hand, and the result has
/// exactly the objects a new database has.
@Suite struct AnalystViewsMigrationTests {
    let folder = TemporaryFolder()

    func versionSixFile() throws -> String {
        let path = folder.path + "/v6.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(SchemaV6Fixture.sql)
        try connection.execute(AnalystViewsSample.inserts)
        #expect(try connection.scalarInt("PRAGMA user_version") == 6)
        return path
    }

    static func lines(_ c: SQLiteConnection, _ sql: String) throws -> [String] {
        try c.statement(sql).bind().map { $0.text(0) }
    }

    @Test func versionSixMigratesAndTheViewsReadItsHistory() throws {
        let store = try SQLiteStore(path: try versionSixFile())
        let c = store.connection
        #expect(try c.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(try Self.lines(c, AnalystViewsSample.decisionLogSQL) == AnalystViewsSample.decisionLog)
        #expect(try Self.lines(c, AnalystViewsSample.matchHistorySQL) == AnalystViewsSample.matchHistory)
        #expect(try store.matches(viewer: "a").map(\.profile) == ["b"])
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "b")).map(\.text) == ["hi", "there", "hello"])
        #expect(try c.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
        // Opening again finds nothing left to do.
        _ = try SQLiteStore(path: c.path)
        #expect(try c.scalarInt("PRAGMA user_version") == Schema.version)
    }

    @Test func migratedSchemaEqualsANewOne() throws {
        let migrated = try SQLiteStore(path: try versionSixFile()).connection
        let fresh = try SQLiteStore(path: folder.path + "/new.sqlite").connection
        #expect(try SchemaMigrationTests.shape(migrated) == SchemaMigrationTests.shape(fresh))
        for (view, columns) in [
            ("decision_log", AnalystViewsSample.decisionLogColumns),
            ("match_history", AnalystViewsSample.matchHistoryColumns),
        ] {
            let got = try fresh.statement("SELECT name FROM pragma_table_info(?1) ORDER BY cid").bind(.text(view))
                .map { $0.text(0) }
            #expect(got == columns, "\(view)")
        }
    }

    /// A failing step leaves the file at version 6, not a byte of it applied.
    @Test func aFailedMigrationLeavesVersionSix() throws {
        let path = try versionSixFile()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE match_history (x)")  // the step's second view must fail
        #expect(throws: (any Error).self) { _ = try SQLiteStore(path: path) }
        #expect(try connection.scalarInt("PRAGMA user_version") == 6)
        #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'decision_log'") == 0)
    }

    /// A reader cannot migrate: refused naming both versions, nothing changed.
    @Test func aReaderIsRefused() throws {
        let path = try versionSixFile()
        #expect(throws: DatabaseOpenError.olderSchema(path: path, found: 6, supported: Schema.version)) {
            _ = try SQLiteStore(path: path, create: false, readOnly: true)
        }
    }

    /// `sqlite3 new.db < schema.sql` (the top-level link) makes the views too:
    /// an analyst's shell reads them with no swipe at all.
    @Test func theSQLite3ShellReadsTheViews() throws {
        let path = folder.path + "/shell.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(Schema.sql)
        try connection.execute(AnalystViewsSample.inserts)
        let out = try sqlite3Elsewhere(path, AnalystViewsSample.matchHistorySQL + ";")
        #expect(out.split(separator: "\n").map(String.init) == AnalystViewsSample.matchHistory)
    }
}
