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
        var bytes: [UInt8] = []
        // A socket's answer (the deck, its cards' profiles) is a few KB: grown once, not doubling from empty.
        bytes.reserveCapacity(4096)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `serialized` to `out`, in one write.
    public func write(to out: inout some TextOutputStream) {
        out.write(serialized)
    }

    /// Appends the value's UTF-8, as `serialized` spells it, to `bytes`:
    /// bytes rather than a `String` or a stream, since a deck answer is a
    /// few hundred small pieces and each append to either cost more than
    /// the piece.
    public func append(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.append(value, to: &bytes)
        case .string(let value): JSONText.append(value, to: &bytes)
        case .verbatim(let text): bytes.append(contentsOf: text.utf8)
        case .array(let values):
            bytes.append(0x5B)  // [
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(0x2C) }  // ,
                value.append(to: &bytes)
            }
            bytes.append(0x5D)  // ]
        case .object(let members):
            bytes.append(0x7B)  // {
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(0x2C) }  // ,
                JSONText.append(key, to: &bytes)
                bytes.append(0x3A)  // :
                value.append(to: &bytes)
            }
            bytes.append(0x7D)  // }
        }
    }

    /// Appends `format(value)`'s bytes. A deck answer is mostly numbers
    /// (each card's x, y, scale, rotation, alpha): those within ±10¹¹ are
    /// written digit by digit, the rest through `format`. The digits are
    /// the same: a number of at most `decimals` places below 10¹¹ is the
    /// shortest spelling of the double nearest it, which `format` prints.
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        let scaled = (value * scale).rounded()
        guard value.isFinite, abs(scaled) < 1e15 else {
            bytes.append(contentsOf: format(value).utf8)
            return
        }
        var units = Int64(scaled)
        if units == 0 {
            bytes.append(0x30)  // 0
            return
        }
        if units < 0 {
            bytes.append(0x2D)  // -
            units = -units
        }
        var places = decimals
        // The fraction's trailing zeros are not written (283.95, not 283.9500).
        while places > 0, units % 10 == 0 {
            units /= 10
            places -= 1
        }
        // Written last digit first, then turned around in place.
        let start = bytes.count
        for _ in 0..<places {
            bytes.append(UInt8(0x30 + units % 10))
            units /= 10
        }
        if places > 0 { bytes.append(0x2E) }  // .
        repeat {
            bytes.append(UInt8(0x30 + units % 10))
            units /= 10
        } while units > 0
        bytes[start...].reverse()
    }

    /// 10 to the power `decimals`: a number times this, rounded, counts its last place.
    private static let scale: Double = (0..<decimals).reduce(1.0) { product, _ in product * 10 }

    /// `value` rounded to `decimals` places in its shortest spelling:
    /// 1 not 1.0, 0 not -0, 283.95 not 283.95000000000005.
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * scale).rounded() / scale
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
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
