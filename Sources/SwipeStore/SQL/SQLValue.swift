/// A value bound to a statement parameter or carried in an error, on any
/// backend (SQLite binds it as is; PostgreSQL sends it in the parameter
/// type's binary form).
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes stored as they are (a SQLite BLOB, a PostgreSQL bytea): photos.
    case blob([UInt8])

    /// `.text(value)`, or `.null` when `value` is nil.
    public static func optionalText(_ value: String?) -> SQLValue {
        value.map(SQLValue.text) ?? .null
    }

    /// `.integer` from a Swift `Int`.
    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }

    /// `.real(value)`, or `.null` when `value` is nil.
    public static func optionalReal(_ value: Double?) -> SQLValue {
        value.map(SQLValue.real) ?? .null
    }

    /// The value as a person reads it in an error: SQL-literal style.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value):
            "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        // A photo's megabytes have no place in an error message: its size does.
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}
