import CSQLite
import Foundation
import SwipeStore

/// A failure reported by SQLite, with what a person needs to find it: the
/// statement, its bound arguments, the extended result code and SQLite's message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code (e.g. 2067, SQLITE_CONSTRAINT_UNIQUE).
    public var extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?
    /// The arguments bound to it, by position.
    public var arguments: [SQLiteValue]
    /// The operating system's errno behind an I/O error (`sqlite3_system_errno`), 0 when none.
    public var systemCode: Int32

    public init(
        extendedCode: Int32, message: String, sql: String? = nil, arguments: [SQLiteValue] = [],
        systemCode: Int32 = 0
    ) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.arguments = arguments
        self.systemCode = systemCode
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// Whether the failure came from the disk or the file system.
    public var isIOError: Bool {
        [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB]
            .contains(primaryCode)
    }

    /// Whether another connection held the lock past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// Whether the disk (or SQLite's page limit) is full.
    /// (SQLite says "disk I/O error" when the disk fills while it grows its -shm file.)
    public var isFull: Bool { primaryCode == SQLITE_FULL || (primaryCode == SQLITE_IOERR && systemCode == ENOSPC) }

    public var description: String {
        // A full disk is not a bug in a statement: say what happened and
        // what to do, without the SQL (still in `sql` and `arguments`).
        if isFull {
            return "the disk holding the database is full (SQLite code \(extendedCode)): nothing was written; "
                + "free some space and try again"
        }
        // SQLite's own "database is locked" tells a person neither why nor what to do.
        var text =
            isBusy
            ? "the database is busy: another swipe has held its write lock for over 5 s (a long import?); "
                + "nothing was changed, try again when it has finished (SQLite code \(extendedCode))"
            : "SQLite error \(extendedCode): \(message)"
        if let sql { text += " in «\(sql)»" }
        if !arguments.isEmpty { text += " with arguments [\(arguments.map(\.description).joined(separator: ", "))]" }
        return text
    }
}
