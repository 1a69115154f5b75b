import SwipeCSV
import SwipeStore
/// A value bound to a statement parameter or carried in an error.
public enum SQLiteValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.text(value)`, or `.null` when `value` is nil.
    public static func optionalText(_ value: String?) -> SQLiteValue {
        value.map(SQLiteValue.text) ?? .null
    }

    /// `.integer` from a Swift `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
