/// A value bound to a statement parameter, written by COPY, or carried in an
/// error. Each case is sent in PostgreSQL's binary format when the parameter's
/// type is the matching one (int2/int4/int8, float8, text-like, bool, bytea)
/// and as text otherwise, so the server parses it as it would a literal.
public enum PostgresValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)
    case bytes([UInt8])

    /// `.text(value)`, or `.null` when `value` is nil.
    public static func optionalText(_ value: String?) -> PostgresValue {
        value.map(PostgresValue.text) ?? .null
    }

    /// `.integer` from a Swift `Int`.
    public static func int(_ value: Int) -> PostgresValue { .integer(Int64(value)) }

    /// The value as a person reads it in an error: SQL-literal style.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingAll("'", with: "''") + "'"
        case .boolean(let value): value ? "TRUE" : "FALSE"
        case .bytes(let value): "'\\x" + PostgresValue.hex(value) + "'::bytea"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
