/// One value in an output row. JSON and CSV print it as data (escaped, never
/// stripped); tables print it for a terminal (sanitized).
public enum Cell: Hashable, Sendable {
    case text(String)
    case int(Int)
    case list([String])
    case null

    /// `.text`, or `.null` for nil.
    public static func optional(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
}
