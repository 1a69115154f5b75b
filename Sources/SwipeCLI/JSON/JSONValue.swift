import SwipeStore

/// A JSON value whose objects keep their keys in the order written, so the
/// REPL's JSON lines always read `ok, command, mode, …` as the README's "JSON mode" shows.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// Written rounded to `JSONValue.decimals` places; never non-finite
    /// (a non-finite number is written as null rather than invalid JSON).
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text written elsewhere, on one line, copied as is: the export
    /// document (`PersonalExport.compactJSON`), whose numbers are written
    /// exactly as stored rather than rounded as `number` rounds them.
    case verbatim(String)

    /// Places kept after the decimal point: enough for every deck number
    /// (0.967, 283.95) without binary noise (0.9670000000000001).
    public static let decimals = 4

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized == rhs.serialized
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized)
    }

    /// The value on one line, no spaces.
    public var serialized: String {
        var out = ""
        // A socket's answer (the deck, its cards' profiles) is a few KB: grown once, not doubling from empty.
        out.reserveCapacity(4096)
        write(to: &out)
        return out
    }

    public func write(to out: inout some TextOutputStream) {
        switch self {
        case .null: out.write("null")
        case .bool(let value): out.write(value ? "true" : "false")
        case .number(let value): out.write(Self.format(value))
        case .string(let value): Self.writeString(value, to: &out)
        case .verbatim(let text): out.write(text)
        case .array(let values):
            out.write("[")
            for (index, value) in values.enumerated() {
                if index > 0 { out.write(",") }
                value.write(to: &out)
            }
            out.write("]")
        case .object(let members):
            out.write("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.write(",") }
                Self.writeString(key, to: &out)
                out.write(":")
                value.write(to: &out)
            }
            out.write("}")
        }
    }

    /// `value` rounded to `decimals` places in its shortest spelling:
    /// 1 not 1.0, 0 not -0, 283.95 not 283.95000000000005.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    /// Escaped as the rest of swipe escapes JSON (SwipeStore's `JSONText`).
    static func writeString(_ text: String, to out: inout some TextOutputStream) {
        JSONText.write(text, to: &out)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(nilLiteral: ()) { self = .null }

    /// A string, or null when absent.
    public static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }
}
