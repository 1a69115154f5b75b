/// The few things the rules need from a connection (SQLite's
/// `SQLiteConnection`, PostgreSQL's `PGConnection`): run a statement, read its
/// first row or each row, insert a row and learn its key, and the locks a
/// backend with concurrent writers needs. Statements are prepared once per
/// SQL text and cached by the connection, so the rules pass constant SQL.
///
/// SQL is written with `$1`, `$2`… placeholders; every value is bound.
public protocol SQLExecutor: AnyObject {
    associatedtype Row: SQLRow

    var dialect: SQLDialect { get }

    /// Runs a statement and returns the number of rows it inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// The first row turned into a value, or nil when there is none.
    func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> T?

    /// Calls `body` with each row while it returns true; the rows after the
    /// last one read need not be computed.
    func each(_ sql: String, _ arguments: [SQLValue], _ body: (Row) throws -> Bool) throws

    /// Runs an INSERT of one row into a table whose key is `key` and returns
    /// that row's key, or nil when no row was stored (a trigger ignored it).
    func insertReturningKey(_ sql: String, _ arguments: [SQLValue]) throws -> Int?

    /// Inside a write transaction: serialises the acting viewer's writes
    /// with any other transaction of the same viewer. A no-op where writers
    /// are serialised anyway (SQLite).
    func lockViewer(_ key: Int) throws

    /// Inside a write transaction: serialises every write about the pair
    /// `a`, `b` (either order), whoever acts. A no-op on SQLite.
    func lockPair(_ a: Int, _ b: Int) throws
}

extension SQLExecutor {
    /// The rows, each turned into a value by `decode`.
    public func all<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> [T] {
        var out: [T] = []
        try each(sql, arguments) { row in
            out.append(try decode(row))
            return true
        }
        return out
    }

    /// The rows decoded by their type's one decoder.
    public func all<T: FetchableRow>(_ type: T.Type, _ sql: String, _ arguments: [SQLValue]) throws -> [T] {
        try all(sql, arguments) { try T(row: $0) }
    }

    /// The first row decoded by its type's one decoder.
    public func first<T: FetchableRow>(_ type: T.Type, _ sql: String, _ arguments: [SQLValue]) throws -> T? {
        try first(sql, arguments) { try T(row: $0) }
    }

    /// Whether `sql` returns a row.
    public func exists(_ sql: String, _ arguments: [SQLValue]) throws -> Bool {
        try first(sql, arguments) { _ in true } ?? false
    }
}
