/// What SQL spells differently from one backend to the other. The rules
/// (`SQLDatabase`) write each statement once, with `$1`, `$2`… placeholders
/// (SQLite's executor rewrites them to `?1`, `?2`… once, when it prepares
/// and caches the statement), and take from here only what cannot be
/// spelled the same way.
public struct SQLDialect: Sendable {
    /// The backend's name, for messages and tests ("sqlite", "postgresql").
    public var name: String
    /// Appended to a text column to compare and order it byte by byte, as
    /// swipe orders ids: "" on SQLite (BINARY is its default), ` COLLATE "C"`
    /// on PostgreSQL (whose indexes on ids are `COLLATE "C"`).
    public var byteOrder: String
    /// Whether text may hold a NUL character. PostgreSQL's cannot, so an id
    /// with one names no profile there and is not even sent.
    public var textHoldsNUL: Bool
    /// An expression for the moment the statement runs, as swipe stores
    /// times (`Timestamp`, UTC to the millisecond), byte-comparable to them:
    /// for rules asked inside a statement that has no time of its own (a
    /// suspension's end, in the feed and the lists).
    public var now: String
    /// The larger of several values in one row: `max(a, b)` on SQLite,
    /// `greatest(a, b)` on PostgreSQL (whose `max` only aggregates).
    public var greatest: String

    public init(name: String, byteOrder: String, textHoldsNUL: Bool, now: String, greatest: String) {
        self.name = name
        self.byteOrder = byteOrder
        self.textHoldsNUL = textHoldsNUL
        self.now = now
        self.greatest = greatest
    }

    public static let sqlite = SQLDialect(
        name: "sqlite", byteOrder: "", textHoldsNUL: true, now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        greatest: "max")
    public static let postgresql = SQLDialect(
        name: "postgresql", byteOrder: #" COLLATE "C""#, textHoldsNUL: false,
        now: #"to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C""#,
        greatest: "greatest")

    /// Whether `text` can be stored (and so can name a stored row).
    @inline(__always)
    public func canHold(_ text: String) -> Bool { textHoldsNUL || !text.utf8.contains(0) }
}
