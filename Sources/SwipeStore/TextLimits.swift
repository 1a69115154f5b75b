/// How long what a person writes may be (issue 36; Documentation/Safety.md),
/// in Unicode scalars (what SQLite's and PostgreSQL's `length()` count), the
/// same on every path: the CSV import (with file, line and column), `me
/// set` in the REPL, JSON mode, the socket and the page, `report`.
public enum TextLimits {
    /// `name` and `city`.
    public static let name = 100
    public static let city = 100
    public static let bio = 5_000
    /// At most this many interests, each at most `interest` long.
    public static let interests = 30
    public static let interest = 50
    /// A report's reason.
    public static let reason = 1_000

    /// Whether `text` is longer than `limit` scalars. Its UTF-8 length
    /// answers at once for most texts: a scalar is 1 to 4 bytes.
    public static func exceeds(_ text: String, _ limit: Int) -> Bool {
        let bytes = text.utf8.count
        if bytes <= limit { return false }
        if bytes > 4 * limit { return true }
        return text.unicodeScalars.count > limit
    }

    /// The scalar count of UTF-8 `bytes` (those that are not continuation bytes).
    public static func scalarCount(_ bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// `bio is 5,214 characters, over the 5,000 a bio may be`.
    public static func message(column: String, length: Int, limit: Int) -> String {
        "\(column) is \(length.formatted(grouping: ",")) characters, over the \(limit.formatted(grouping: ",")) "
            + "\(column == "a report's reason" ? "it" : "a " + column) may be"
    }

    /// Where `bytes` stop being UTF-8 (the offset of the first byte that
    /// does not decode), nil when they are valid throughout.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
