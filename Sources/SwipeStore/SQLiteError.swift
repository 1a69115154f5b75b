import CSQLite

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

    public init(extendedCode: Int32, message: String, sql: String? = nil, arguments: [SQLiteValue] = []) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// Whether the failure came from the disk or the file system.
    public var isIOError: Bool {
        [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB]
            .contains(primaryCode)
    }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " in «\(sql)»" }
        if !arguments.isEmpty { text += " with arguments [\(arguments.map(\.description).joined(separator: ", "))]" }
        return text
    }
}
