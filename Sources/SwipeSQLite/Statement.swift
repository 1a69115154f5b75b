import CSQLite
import SwipeCSV
import SwipeStore

/// A prepared statement: compiled once, then bound by position, stepped and
/// reset for reuse. Obtain one from `SQLiteConnection.statement(_:)`, which caches it.
public final class Statement {
    let handle: OpaquePointer
    /// Unowned: the connection's cache owns its statements, so a strong
    /// reference back would keep every connection (and its file) open forever.
    unowned let connection: SQLiteConnection
    /// The SQL it was prepared from.
    public let sql: String
    private var arguments: [SQLiteValue] = []
    /// Each result column's position by its name, learnt on first use.
    private(set) lazy var columnIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for column in 0..<sqlite3_column_count(handle) {
            let name = String(cString: sqlite3_column_name(handle, column))
            if indexes[name] == nil { indexes[name] = Int(column) }
        }
        return indexes
    }()

    init(connection: SQLiteConnection, sql: String) throws {
        var handle: OpaquePointer?
        let sql = SQLiteDialect.placeholders(sql)
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.error(code: code, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1, 2, … in order.
    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        arguments = values
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let v): sqlite3_bind_int64(handle, index, v)
                case .real(let v): sqlite3_bind_double(handle, index, v)
                case .text(let v): Self.bindText(v, to: handle, at: index)
                case .blob(let v):
                    v.withUnsafeBytes {
                        // An empty blob is a zero-length BLOB, not NULL: a pointer it must have.
                        sqlite3_bind_blob64(
                            handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64($0.count),
                            swipe_sqlite_transient())
                    }
                }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        return self
    }

    /// Binds `text` by its UTF-8 byte count, not up to a NUL: a NUL inside a
    /// field is data, and a C-string bind would silently cut the text there.
    private static func bindText(_ text: String, to handle: OpaquePointer, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                // An empty string may have no storage; a nil pointer would bind NULL.
                guard let start = chars.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, swipe_sqlite_transient())
                }
                return sqlite3_bind_text64(
                    handle, index, start, sqlite3_uint64(chars.count), swipe_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Variadic form of `bind(_:)`.
    @discardableResult
    public func bind(_ values: SQLiteValue...) throws -> Statement { try bind(values) }

    /// Binds UTF-8 `bytes` by count without copying them (SQLITE_STATIC):
    /// they must stay alive and unchanged until the statement is reset; nil
    /// binds NULL. For hot loops that bind the same statement row after row.
    /// `terminated` promises a NUL right after `bytes` and none inside them:
    /// SQLite then treats the text as C-terminated and need not copy it to
    /// terminate it for a function such as length() or json_valid().
    func bind(_ index: Int32, bytes: UnsafeBufferPointer<UInt8>?, terminated: Bool = false) throws {
        let code: Int32
        if let bytes {
            code =
                bytes.isEmpty
                ? sqlite3_bind_text(handle, index, "", 0, swipe_sqlite_transient())
                : sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                    terminated ? -1 : Int32(bytes.count), nil)
        } else {
            code = sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Binds an integer to parameter `index`.
    func bind(_ index: Int32, int: Int) throws {
        let code = sqlite3_bind_int64(handle, index, Int64(int))
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Binds a real to parameter `index`, or NULL for nil.
    func bind(_ index: Int32, double: Double?) throws {
        let code = double.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Resets the statement (its bindings stay), ending any row being read.
    func reset() { sqlite3_reset(handle) }

    /// Steps once and resets, returning sqlite3_step's code: for callers that
    /// handle a failure such as a conflict themselves (after the reset SQLite
    /// still reports its extended code and message).
    func stepAndReset() -> Int32 {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        return code
    }

    /// Advances to the next row: true when a row is available through `row`.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let error = failure(code)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or ignores them).
    public func run() throws {
        while try step() {}
    }

    /// Calls `body` with each row, then resets.
    public func forEachRow(_ body: (Row) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(Row(statement: self)) }
    }

    /// Calls `body` with each row while it returns true, then resets: the
    /// rows after the last one read are never computed.
    public func forEachRowWhile(_ body: (Row) throws -> Bool) throws {
        defer { sqlite3_reset(handle) }
        while try step() {
            if try !body(Row(statement: self)) { return }
        }
    }

    /// The rows, each turned into a value by `transform`.
    public func map<T>(_ transform: (Row) throws -> T) throws -> [T] {
        var out: [T] = []
        try forEachRow { out.append(try transform($0)) }
        return out
    }

    /// The first row turned into a value, or nil when there is none.
    public func first<T>(_ transform: (Row) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        return try step() ? transform(Row(statement: self)) : nil
    }

    /// The current row (valid only after `step()` returned true).
    public var row: Row { Row(statement: self) }

    private func failure(_ code: Int32) -> SQLiteError {
        connection.error(code: code, sql: sql, arguments: arguments)
    }
}

/// One result row: columns are read by position here, by name through
/// `SQLRow` (the statement learns its column names once).
public struct Row {
    let statement: Statement
    var handle: OpaquePointer { statement.handle }

    init(statement: Statement) { self.statement = statement }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as text ("" for NULL).
    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes as stored (a BLOB), [] for NULL.
    public func blob(_ column: Int32) -> [UInt8] {
        guard let start = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The column as text, or nil for NULL.
    public func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    /// The column's UTF-8 bytes without a copy, or nil for NULL. Valid only
    /// until the statement steps again (inside a `forEachRow` body).
    public func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        if isNull(column) { return nil }
        let start = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeBufferPointer(start: count == 0 ? nil : start, count: count)
    }
}
