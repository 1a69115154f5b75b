import SwipeSession

/// One value in an output row. JSON and CSV print it as data (escaped, never
/// stripped); tables print it for a terminal (sanitized).
public enum Cell: Hashable, Sendable {
    case text(String)
    case int(Int)
    /// A real number, printed in Swift's shortest exact form (52.52, not 52.52000000000001).
    case real(Double)
    case list([String])
    case null

    /// A real as printed: whole numbers without ".0" (50, not 50.0), others
    /// in Swift's shortest form that reads back exactly.
    static func text(real value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `.text`, or `.null` for nil.
    public static func optional(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
}
