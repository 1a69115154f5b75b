import SwipeStore

/// The connection as SwipeStore's executor: the rules' statements run on
/// this connection's cache of prepared statements (their `$N` placeholders
/// rewritten once, at prepare). SQLite serialises writers with its write
/// lock, so the viewer and pair locks are no-ops.
extension SQLiteConnection: SQLExecutor {
    public var dialect: SQLDialect { .sqlite }

    @discardableResult
    public func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try statement(sql).bind(arguments).run()
        return changes
    }

    public func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> T? {
        try statement(sql).bind(arguments).first(decode)
    }

    public func each(_ sql: String, _ arguments: [SQLValue], _ body: (Row) throws -> Bool) throws {
        try statement(sql).bind(arguments).forEachRowWhile(body)
    }

    /// The key of the row just inserted, when the INSERT stored exactly one
    /// (a trigger may have ignored it: no change).
    public func insertReturningKey(_ sql: String, _ arguments: [SQLValue]) throws -> Int? {
        try statement(sql).bind(arguments).run()
        return changes == 1 ? lastInsertRowID : nil
    }

    public func lockViewer(_ key: Int) throws {}
    public func lockPair(_ a: Int, _ b: Int) throws {}
}

extension Row: SQLRow {
    public func columnIndex(_ name: String) -> Int? { statement.columnIndexes[name] }
    public func isNull(at column: Int) -> Bool { isNull(Int32(column)) }
    public func int(at column: Int) -> Int { int(Int32(column)) }
    public func double(at column: Int) -> Double { double(Int32(column)) }
    public func text(at column: Int) -> String { text(Int32(column)) }
    public func blob(at column: Int) -> [UInt8] { blob(Int32(column)) }
}
