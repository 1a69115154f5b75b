import CLibPQ

/// The rows of one execution, held until the value is dropped. Iterate it, or
/// index it: `result[0].int(0)`.
public final class PGResult: RandomAccessCollection {
    let handle: OpaquePointer
    /// The statement that produced it (for errors).
    public let sql: String

    init(_ handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { PQclear(handle) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(PQntuples(handle)) }
    public subscript(position: Int) -> PGRow { PGRow(result: self, row: Int32(position)) }

    public var columnCount: Int { Int(PQnfields(handle)) }

    /// The name of column `column` as the server labelled it.
    public func columnName(_ column: Int) -> String { String(cString: PQfname(handle, Int32(column))) }

    /// Rows inserted, updated, deleted, selected or copied, as the command
    /// tag says (`INSERT 0 3` → 3); 0 for commands that count nothing.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }
}

/// One row; columns are read by position, each accessor checking that the
/// column's type is one it reads (reading a `text` column as an integer is an
/// error, not a silent 0). Cast other types in SQL (`decided_at::text`).
public struct PGRow {
    let result: PGResult
    let row: Int32

    public func isNull(_ column: Int) throws -> Bool {
        try checkColumn(column)
        return PQgetisnull(result.handle, row, Int32(column)) == 1
    }

    /// An integer column (smallint, integer, bigint, oid).
    public func int(_ column: Int) throws -> Int { Int(try int64(column)) }

    public func int64(_ column: Int) throws -> Int64 {
        let (type, bytes) = try value(column, reading: "an integer")
        if isText(column) {
            guard let value = Int64(String(decoding: bytes, as: UTF8.self)) else {
                throw mismatch(column, type, "an integer")
            }
            return value
        }
        switch type {
        case PostgresType.int8: return Int64(bigEndian: load(bytes, as: Int64.self))
        case PostgresType.int4: return Int64(Int32(bigEndian: load(bytes, as: Int32.self)))
        case PostgresType.int2: return Int64(Int16(bigEndian: load(bytes, as: Int16.self)))
        case PostgresType.oid: return Int64(UInt32(bigEndian: load(bytes, as: UInt32.self)))
        default: throw mismatch(column, type, "an integer")
        }
    }

    /// A floating-point column (double precision, real) or an integer one.
    public func double(_ column: Int) throws -> Double {
        let (type, bytes) = try value(column, reading: "a number")
        if isText(column) {
            let text = String(decoding: bytes, as: UTF8.self)
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                guard let value = Double(text) else { throw mismatch(column, type, "a number") }
                return value
            }
        }
        switch type {
        case PostgresType.float8: return Double(bitPattern: UInt64(bigEndian: load(bytes, as: UInt64.self)))
        case PostgresType.float4: return Double(Float(bitPattern: UInt32(bigEndian: load(bytes, as: UInt32.self))))
        case PostgresType.int8, PostgresType.int4, PostgresType.int2: return Double(try int64(column))
        default: throw mismatch(column, type, "a number")
        }
    }

    public func bool(_ column: Int) throws -> Bool {
        let (type, bytes) = try value(column, reading: "a boolean")
        guard type == PostgresType.bool, bytes.count == 1 else { throw mismatch(column, type, "a boolean") }
        return isText(column) ? bytes[0] == UInt8(ascii: "t") : bytes[0] != 0
    }

    /// A text-like column (text, varchar, char(n), name, json, jsonb).
    public func text(_ column: Int) throws -> String {
        let (type, bytes) = try value(column, reading: "text")
        if PostgresType.isTextual(type) || isText(column) { return String(decoding: bytes, as: UTF8.self) }
        // jsonb's binary form is a version byte (1) and the text.
        if type == PostgresType.jsonb, bytes.first == 1 { return String(decoding: bytes.dropFirst(), as: UTF8.self) }
        throw mismatch(column, type, "text")
    }

    /// A bytea column's bytes (or a text-like column's UTF-8).
    public func bytes(_ column: Int) throws -> [UInt8] {
        let (type, bytes) = try value(column, reading: "bytes")
        guard type == PostgresType.bytea || PostgresType.isTextual(type), !isText(column) else {
            throw mismatch(column, type, "bytes")
        }
        return Array(bytes)
    }

    public func optionalText(_ column: Int) throws -> String? { try isNull(column) ? nil : text(column) }
    public func optionalInt(_ column: Int) throws -> Int? { try isNull(column) ? nil : int(column) }
    public func optionalDouble(_ column: Int) throws -> Double? { try isNull(column) ? nil : double(column) }

    /// The column as the value its type maps to (`.null` for NULL).
    public func value(_ column: Int) throws -> PostgresValue {
        if try isNull(column) { return .null }
        let type = PQftype(result.handle, Int32(column))
        switch type {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.oid:
            return .integer(try int64(column))
        case PostgresType.float8, PostgresType.float4: return .real(try double(column))
        case PostgresType.bool: return .boolean(try bool(column))
        case PostgresType.bytea: return .bytes(try bytes(column))
        default: return .text(try text(column))
        }
    }

    // MARK: -

    private func checkColumn(_ column: Int) throws {
        guard column >= 0, column < result.columnCount else {
            throw PostgresError(
                kind: .client, message: "no column \(column): the statement returns \(result.columnCount)",
                sql: result.sql)
        }
    }

    /// The column's type and bytes; NULL is an error here (use `isNull` or an `optional…` accessor).
    private func value(_ column: Int, reading wanted: String) throws -> (Oid, UnsafeBufferPointer<UInt8>) {
        try checkColumn(column)
        let type = PQftype(result.handle, Int32(column))
        guard PQgetisnull(result.handle, row, Int32(column)) == 0 else {
            throw PostgresError(
                kind: .client,
                message: "column \(column) (\(result.columnName(column))) of row \(row) is NULL, read as \(wanted)",
                sql: result.sql)
        }
        let start = PQgetvalue(result.handle, row, Int32(column))!
        let count = Int(PQgetlength(result.handle, row, Int32(column)))
        return (
            type, UnsafeBufferPointer(start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: count)
        )
    }

    /// Whether the column came back as text (the simple query protocol), not binary.
    private func isText(_ column: Int) -> Bool { PQfformat(result.handle, Int32(column)) == 0 }

    private func load<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as: T.Type) -> T {
        precondition(bytes.count == MemoryLayout<T>.size, "binary \(T.self) of \(bytes.count) bytes")
        return UnsafeRawBufferPointer(bytes).loadUnaligned(as: T.self)
    }

    private func mismatch(_ column: Int, _ type: Oid, _ wanted: String) -> PostgresError {
        PostgresError(
            kind: .client,
            message: "column \(column) (\(result.columnName(column))) is \(PostgresType.name(of: type)), "
                + "which cannot be read as \(wanted); cast it in the SQL",
            sql: result.sql)
    }
}
