import CLibPQ
import SwipeStore

/// The connection as SwipeStore's executor: the rules' statements are
/// prepared once per session (`statement`) and their values sent in binary.
/// The viewer and pair locks are `PGConnection+Locks`' (Store/PGConnection+Locks.swift).
extension PGConnection: SQLExecutor {
    public var dialect: SQLDialect { .postgresql }

    @discardableResult
    public func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let arguments = arguments.map(PostgresValue.init)
        return try statement(sql).run(arguments)
    }

    public func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (PGRow) throws -> T) throws -> T? {
        let arguments = arguments.map(PostgresValue.init)
        return try statement(sql).first(arguments, decode)
    }

    public func each(_ sql: String, _ arguments: [SQLValue], _ body: (PGRow) throws -> Bool) throws {
        let arguments = arguments.map(PostgresValue.init)
        for row in try statement(sql).query(arguments) where try !body(row) { return }
    }

    /// The INSERT with `RETURNING key`: no row when none was stored.
    public func insertReturningKey(_ sql: String, _ arguments: [SQLValue]) throws -> Int? {
        let arguments = arguments.map(PostgresValue.init)
        return try statement(sql + " RETURNING key").first(arguments) { try $0.int(0) }
    }
}

extension PostgresValue {
    /// The same value as PostgreSQL binds it.
    public init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .bytes(value)
        }
    }
}

extension PGRow: SQLRow {
    public func columnIndex(_ name: String) -> Int? {
        let index = PQfnumber(result.handle, name)
        return index < 0 ? nil : Int(index)
    }
    public func isNull(at column: Int) throws -> Bool { try isNull(column) }
    public func int(at column: Int) throws -> Int { try int(column) }
    public func double(at column: Int) throws -> Double { try double(column) }
    public func text(at column: Int) throws -> String { try text(column) }
    public func blob(at column: Int) throws -> [UInt8] { try isNull(column) ? [] : bytes(column) }
}

extension PostgresStoredRow: SQLRow {
    public func columnIndex(_ name: String) -> Int? {
        let index = PQfnumber(handle, name)
        return index < 0 ? nil : Int(index)
    }
    public func isNull(at column: Int) -> Bool { isNull(Int32(column)) }
    public func int(at column: Int) -> Int { int(Int32(column)) }
    public func double(at column: Int) -> Double { double(Int32(column)) }
    public func text(at column: Int) -> String { text(Int32(column)) }
    /// A bytea in text format (`\\x` and hex digits, as this streaming row reads it).
    public func blob(at column: Int) -> [UInt8] {
        guard let text = bytes(Int32(column)), text.count >= 2, text[0] == 0x5C, text[1] == 0x78 else { return [] }
        func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c &- 0x30 : (c | 0x20) &- 0x57 }
        return stride(from: 2, to: text.count - 1, by: 2).map { nibble(text[$0]) << 4 | nibble(text[$0 + 1]) }
    }
}
