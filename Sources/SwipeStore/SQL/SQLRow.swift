/// One result row of any backend, read by column name (GRDB's `Row`): a
/// query labels each column it returns (`count(*) AS profiles`), and a
/// decoder (`FetchableRow`) reads them by those labels, never by position,
/// so a column added to a query cannot shift what another one means.
///
/// A backend implements the positional primitives; the named accessors
/// below find the column and report a missing one with its name.
public protocol SQLRow {
    /// The position of the column labelled `name`, or nil.
    func columnIndex(_ name: String) -> Int?
    func isNull(at column: Int) throws -> Bool
    func int(at column: Int) throws -> Int
    func double(at column: Int) throws -> Double
    /// The column as text ("" for NULL).
    func text(at column: Int) throws -> String
    /// The column's bytes as stored (a BLOB, a bytea; [] for NULL).
    func blob(at column: Int) throws -> [UInt8]
}

/// A value made from one row by column name (GRDB's `FetchableRecord`):
/// one decoder per type, shared by every backend.
public protocol FetchableRow {
    init(row: some SQLRow) throws
}

/// A query's row lacks a column its decoder reads: a mistake in swipe's SQL.
public struct MissingColumn: Error, CustomStringConvertible {
    public var name: String
    public var description: String { "the query returns no column \"\(name)\"" }
}

extension SQLRow {
    @inline(__always)
    func position(_ name: String) throws -> Int {
        guard let index = columnIndex(name) else { throw MissingColumn(name: name) }
        return index
    }

    public func isNull(_ name: String) throws -> Bool { try isNull(at: position(name)) }
    public func int(_ name: String) throws -> Int { try int(at: position(name)) }
    public func double(_ name: String) throws -> Double { try double(at: position(name)) }
    public func text(_ name: String) throws -> String { try text(at: position(name)) }
    public func blob(_ name: String) throws -> [UInt8] { try blob(at: position(name)) }

    public func optionalText(_ name: String) throws -> String? {
        let index = try position(name)
        return try isNull(at: index) ? nil : text(at: index)
    }

    public func optionalInt(_ name: String) throws -> Int? {
        let index = try position(name)
        return try isNull(at: index) ? nil : int(at: index)
    }

    public func optionalDouble(_ name: String) throws -> Double? {
        let index = try position(name)
        return try isNull(at: index) ? nil : double(at: index)
    }

    /// A stored enum value (`decision`, `via`); a value swipe never writes
    /// (a CHECK bypassed by another program) is `StoreError.undecodable`
    /// naming the table, the row's key and the column, never read as something else.
    public func decoded<Value: RawRepresentable<String>>(
        _ name: String, table: String = "decisions", key: Int
    ) throws -> Value {
        let text = try text(name)
        guard let value = Value(rawValue: text) else {
            throw StoreError.undecodable(table: table, key: key, column: name, value: text)
        }
        return value
    }
}
