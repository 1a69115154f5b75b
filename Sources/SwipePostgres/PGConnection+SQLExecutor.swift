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
}
