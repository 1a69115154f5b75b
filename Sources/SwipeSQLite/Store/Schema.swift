import CSQLite
import Foundation
import SwipeStore

/// The database schema, its versions, and how a swipe database is recognised.
///
/// A new database gets schema.sql whole (`Schema.sql`, embedded). An older one
/// is brought forward by `migrations`, one forward-only step per version; there
/// are no down steps. A database newer than this binary is refused, and so is
/// any file swipe did not write (`identify`), before anything is written to it.
public enum Schema {
    /// The version schema.sql creates (its `PRAGMA user_version`).
    public static let version = 8

    /// `PRAGMA application_id` of every swipe database: 0x53574950, "SWIP".
    public static let applicationID: Int32 = 0x5357_4950

    /// The tables of version 1: with application_id 0 and user_version 1 they
    /// identify a database written by the release before application_id.
    static let legacyTables: Set<String> = ["profiles", "decisions", "matches", "feed_cursors", "settings"]

    /// Steps from version `from` to `from + 1`, in order, each run inside the
    /// one write transaction of `prepare` (a failure leaves the file as it was).
    static var migrations: [(from: Int, sql: String)] {
        [
            (1, SchemaV2.migration), (2, SchemaV3.migration), (3, SchemaV4.migration), (4, SchemaV5.migration),
            (5, SchemaV6.migration), (6, SchemaV7.migration), (7, SchemaV8.migration),
        ]
    }

    /// What a file holds, as far as swipe is concerned.
    public enum Identity: Equatable, Sendable {
        /// No database yet (a 0-byte or new file, or one with nothing in it
        /// at all): only `swipe import` may create one.
        case empty
        /// A swipe database at this schema version (1…`Schema.version`).
        case swipe(version: Int)
        /// Version 1 as the release before application_id wrote it.
        case legacy
    }

    /// Identifies the database on `connection` by reading only (the header's
    /// application_id and user_version, and for the legacy form the table
    /// names). Throws `DatabaseOpenError.notSwipeDatabase` for anything swipe did not
    /// write and `DatabaseOpenError.newerSchema` for a swipe database too new for this binary.
    public static func identify(_ connection: SQLiteConnection) throws -> Identity {
        let pages = try connection.scalarInt("PRAGMA page_count") ?? 0
        if try pages == 0 || isBlank(connection) { return .empty }
        let application = try connection.scalarInt("PRAGMA application_id") ?? 0
        let found = try connection.scalarInt("PRAGMA user_version") ?? 0
        if application == Int(applicationID) {
            if found > version {
                throw DatabaseOpenError.newerSchema(path: connection.path, found: found, supported: version)
            }
            if found >= 1 { return .swipe(version: found) }
        } else if application == 0 && found == 1 {
            let tables = Set(
                try connection.statement("SELECT name FROM sqlite_schema WHERE type = 'table'").bind().map {
                    $0.text(0)
                })
            if legacyTables.isSubset(of: tables) { return .legacy }
        }
        throw DatabaseOpenError.notSwipeDatabase(path: connection.path)
    }

    /// Refuses, from the file's first 100 bytes alone, a file that is
    /// certainly not a swipe database, before SQLite opens it (opening a
    /// WAL-mode file, even read-only, leaves `-wal` and `-shm` files beside
    /// it). A header that may be stale (a non-empty `-wal` beside the file
    /// holds newer pages) is left to `identify`. Returns whether the file is
    /// empty.
    ///
    /// With `create`, a header with application_id 0 and user_version 0 is
    /// left to `identify` too: it is what a file another swipe is creating
    /// at this moment shows (switched to WAL, schema not yet checkpointed).
    static func precheck(path: String, create: Bool) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if header.isEmpty { return walSize == 0 }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw DatabaseOpenError.notSwipeDatabase(path: path)
        }
        if walSize > 0 { return false }
        func int32(at offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let application = int32(at: 68), found = int32(at: 60)
        let plausible =
            (application == applicationID && found >= 1) || (application == 0 && found == 1)
            || (create && application == 0 && found == 0)
        if !plausible { throw DatabaseOpenError.notSwipeDatabase(path: path) }
        return false
    }

    /// Brings the database on `connection`, identified as `identity`, to
    /// `version`: creates it when empty, stamps the legacy form with
    /// application_id, migrates it when older. The connection must be writable.
    public static func prepare(_ connection: SQLiteConnection, identity: Identity) throws {
        if identity == .swipe(version: version) { return }
        try connection.writeTransaction {
            // Re-read under the write lock: another process may have created
            // or migrated it meanwhile. A file that was empty has only the
            // header the switch to WAL wrote: no schema objects, no version.
            if identity == .empty, try isBlank(connection) {
                return try connection.execute(sql)
            }
            switch try identify(connection) {
            case .empty:
                throw DatabaseOpenError.notSwipeDatabase(path: connection.path)
            case .legacy:
                try connection.execute("PRAGMA application_id = \(applicationID)")
                try migrate(connection, from: 1)
            case .swipe(let found):
                try migrate(connection, from: found)
            }
        }
    }

    /// Whether the database holds nothing yet: no schema object, version 0,
    /// application_id 0 (a 0-byte file after its switch to WAL).
    static func isBlank(_ connection: SQLiteConnection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_schema") == 0
            && connection.scalarInt("PRAGMA user_version") == 0
            && connection.scalarInt("PRAGMA application_id") == 0
    }

    /// Runs the migration steps from version `found` on.
    private static func migrate(_ connection: SQLiteConnection, from found: Int) throws {
        for step in migrations where step.from >= found {
            try connection.execute(step.sql)
        }
    }

    /// Checks that a database opened read-only can be read as it is: an
    /// older version would need a migration, which a reader may not write.
    static func checkReadable(_ connection: SQLiteConnection, identity: Identity) throws {
        let found: Int
        switch identity {
        case .empty: throw DatabaseOpenError.notSwipeDatabase(path: connection.path)
        case .legacy: found = 1
        case .swipe(let stored): found = stored
        }
        if found < version {
            throw DatabaseOpenError.olderSchema(path: connection.path, found: found, supported: version)
        }
    }

    /// The statements of schema.sql, each whole (comments before it included),
    /// split where SQLite says a statement is complete (a trigger's inner
    /// semicolons do not end it).
    static let statements: [String] = {
        var result: [String] = []
        var pending = ""
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            pending += line + "\n"
            if sqlite3_complete(pending) != 0 {
                result.append(pending)
                pending = ""
            }
        }
        return result
    }()

    /// The statement of schema.sql that begins `prefix` once its comments are
    /// set aside (e.g. `CREATE TABLE blocks `): migrations create new objects
    /// from the one schema text rather than from a copy of it.
    static func statement(_ prefix: String) -> String {
        let found = statements.compactMap { statement -> String? in
            let code = statement.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            return code.hasPrefix(prefix) ? code : nil
        }
        precondition(found.count == 1, "schema.sql has \(found.count) statements beginning \(prefix)")
        return found[0]
    }
}
