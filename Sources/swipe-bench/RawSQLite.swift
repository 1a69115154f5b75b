import CSQLite

/// The baselines' side of the comparisons: SQLite through its C API and
/// nothing else — statements prepared once, text bound in place
/// (`SQLITE_STATIC`), no statement cache, no value enums, no errors with context.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK, let handle
        else { throw BenchError("cannot open \(path)") }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    /// The connection settings swipe uses (README, "Architecture"): WAL + NORMAL.
    func configureLikeSwipe() throws {
        try execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
        sqlite3_busy_timeout(handle, 5000)
    }

    /// What `swipe import` switches to for a profile import on a database no
    /// other connection has open (`SQLiteConnection.bulkWrite`): a rollback
    /// journal synced one step harder (FULL for NORMAL), and the CHECKs left
    /// to the importer's own row checks.
    func configureLikeSwipeImport() throws {
        try configureLikeSwipe()
        try execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA ignore_check_constraints = ON")
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement { try RawStatement(database: self, sql: sql) }

    func count(_ table: String) throws -> Int {
        let statement = try prepare("SELECT count(*) FROM \(table)")
        _ = try statement.step()
        return Int(sqlite3_column_int64(statement.handle, 0))
    }
}

final class RawStatement {
    let handle: OpaquePointer
    private let database: RawDatabase

    init(database: RawDatabase, sql: String) throws {
        var handle: OpaquePointer?
        guard
            sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
                == SQLITE_OK, let handle
        else { throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database.handle)))") }
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Steps once: true for a row, false when done (and then resets).
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let message = String(cString: sqlite3_errmsg(database.handle))
            sqlite3_reset(handle)
            throw BenchError(message)
        }
    }

    func reset() { sqlite3_reset(handle) }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }

    /// Binds `count` bytes at `bytes`, which must stay valid until the step.
    func bind(_ index: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
        bytes.withMemoryRebound(to: CChar.self, capacity: count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(count), nil)
        }
    }

    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
}
