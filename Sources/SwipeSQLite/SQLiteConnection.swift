import CSQLite
import Foundation
import SwipeStore

/// One SQLite connection configured as swipe needs it: WAL, foreign keys, a
/// busy timeout and a chosen `synchronous` level. Statements are prepared once
/// and cached by their SQL text.
///
/// A connection is used from one thread at a time (it is not `Sendable`).
public final class SQLiteConnection {
    /// How hard SQLite syncs to disk on commit (`PRAGMA synchronous`).
    public enum Synchronous: String, Sendable {
        /// Durable across application crashes; in WAL mode a power loss may
        /// lose the last commits but never corrupts.
        case normal = "NORMAL"
        /// Also durable across power loss, at the cost of an fsync per commit.
        case full = "FULL"
    }

    let handle: OpaquePointer
    /// The file this connection opened.
    public let path: String
    /// The `synchronous` level chosen at open.
    public let synchronous: Synchronous
    private var cache: [String: Statement] = [:]
    /// This connection's entry in `OpenDatabaseFiles` (nil for a file that vanished).
    private var registration: OpenDatabaseFiles.FileID?

    /// Whether the connection was opened read-only (SQLITE_OPEN_READONLY).
    public let isReadOnly: Bool

    /// Opens the database at `path`, creating it if missing unless `create` is
    /// false (then a missing file fails with SQLITE_CANTOPEN and nothing is
    /// made). With `readOnly` the file is opened SQLITE_OPEN_READONLY and its
    /// journal mode is left as it is: nothing is written. Otherwise, unless
    /// `configure` is false, the connection is made ready to write at once
    /// (`configureForWriting`); `SQLiteStore` first identifies the file, then does that.
    public init(
        path: String, synchronous: Synchronous = .normal, busyTimeoutMilliseconds: Int32 = 5000,
        create: Bool = true, readOnly: Bool = false, immutable: Bool = false, configure: Bool = true
    ) throws {
        var handle: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
            | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let code = sqlite3_open_v2(immutable ? Self.immutableURI(path) : path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: extended, message: message + " (\(path))")
        }
        self.handle = handle
        self.path = path
        self.registration = OpenDatabaseFiles.opened(path)
        self.synchronous = synchronous
        self.isReadOnly = readOnly
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        try execute("PRAGMA foreign_keys = ON")
        if !readOnly && configure { try configureForWriting() }
    }

    private let busyTimeoutMilliseconds: Int32

    /// `file:PATH?immutable=1`: SQLite reads the file as one nobody can
    /// change (no locks, no -shm). True of a file on a read-only file system.
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    /// WAL mode (persistent in the file) and the chosen `synchronous` level.
    /// Switching to WAL writes the file's header: call it only on a file
    /// known to be a swipe database (or about to become one).
    public func configureForWriting() throws {
        try enterWAL(withinMilliseconds: busyTimeoutMilliseconds)
        try execute("PRAGMA synchronous = \(synchronous.rawValue)")
        // Freed content is overwritten with zeros: an erased person's rows
        // leave no bytes in the file (Documentation/PersonalData.md).
        try execute("PRAGMA secure_delete = ON")
    }

    /// Puts the database in WAL mode, retrying for up to `milliseconds` while
    /// SQLite answers SQLITE_BUSY.
    ///
    /// The busy timeout does not cover this: when two connections open a new
    /// (rollback-mode) file at once, both hold a shared lock and both need the
    /// exclusive one to switch it to WAL, so SQLite breaks the deadlock by
    /// failing one of them at once, busy handler or not (1 round in 6 with two
    /// threads here). Its shared lock is gone with the failed statement, so
    /// trying again lets the other finish; it then finds WAL already set.
    private func enterWAL(withinMilliseconds milliseconds: Int32) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        while true {
            do {
                return try execute("PRAGMA journal_mode = WAL")
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                sqlite3_sleep(1)
            }
        }
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
        OpenDatabaseFiles.closed(registration)
    }

    /// Runs one or more statements that take no arguments (schema text, pragmas).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql,
                systemCode: sqlite3_system_errno(handle))
        }
    }

    /// The cached prepared statement for `sql`, preparing it on first use.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = cache[sql] { return cached }
        let statement = try Statement(connection: self, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql` as an integer (for pragmas
    /// and counts), or nil when there is no row.
    public func scalarInt(_ sql: String, _ arguments: SQLiteValue...) throws -> Int? {
        try statement(sql).bind(arguments).first { $0.int(0) }
    }

    /// The rowid of the last successful INSERT.
    public var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func error(code: Int32, sql: String?, arguments: [SQLiteValue] = []) -> SQLiteError {
        SQLiteError(
            extendedCode: sqlite3_extended_errcode(handle),
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql,
            arguments: arguments,
            systemCode: sqlite3_system_errno(handle))
    }
}
