import Foundation
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

@Suite struct SchemaTests {
    @Test func embeddedSchemaIsSchemaSQL() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../schema.sql").standardizedFileURL
        let text = try String(contentsOf: file, encoding: .utf8)
        // The top-level schema.sql is a link to the embedded file: they cannot drift apart.
        #expect(Schema.sql == text)
    }

    @Test func newDatabaseHasTheSchemaVersion() throws {
        let folder = TemporaryFolder()
        let store = try folder.store()
        #expect(try store.connection.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(try store.connection.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try store.connection.statement("PRAGMA journal_mode").bind().first { $0.text(0) } == "wal")
    }

    @Test func newerDatabaseIsRefused() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/newer.sqlite"
        do {
            let store = try SQLiteStore(path: path)
            try store.connection.execute("PRAGMA user_version = \(Schema.version + 1)")
        }
        #expect(throws: DatabaseOpenError.newerSchema(path: path, found: Schema.version + 1, supported: Schema.version))
        {
            try SQLiteStore(path: path)
        }
    }

    @Test func newFilesArePrivate() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/a/b/db.sqlite"
        _ = try SQLiteStore(path: path)
        let file = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let parent = try FileManager.default.attributesOfItem(atPath: folder.path + "/a/b")[.posixPermissions] as? Int
        #expect(file == 0o600)
        #expect(parent == 0o700)
    }

    @Test func uncreatableDatabaseIsCannotCreate() {
        #expect(throws: DatabaseOpenError.self) { try SQLiteStore(path: "/proc/no/such/db.sqlite") }
    }

    @Test func sqliteErrorsCarryTheStatementAndArguments() throws {
        let store = try TemporaryFolder().store()
        do {
            try store.connection.statement("INSERT INTO profiles (id, name, age) VALUES (?1, ?2, ?3)")
                .bind(.text("x"), .text("X"), .int(7)).run()
            Issue.record("age 7 was accepted")
        } catch let error as SQLiteError {
            #expect(error.extendedCode == 275)  // SQLITE_CONSTRAINT_CHECK = 19 | (1 << 8)
            #expect(error.sql?.contains("INSERT INTO profiles") == true)
            #expect(error.arguments == [.text("x"), .text("X"), .integer(7)])
            #expect(error.message.contains("CHECK constraint failed"))
        }
    }
}
