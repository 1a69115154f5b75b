import Foundation
import Testing

@testable import SwipeCLI
@testable import SwipeSession

@Suite("JSON writer")
struct JSONValueTests {
    @Test(
        "numbers: rounded to 4 places, shortest spelling, never non-finite",
        arguments: [
            (1.0, "1"), (0.0, "0"), (-0.0, "0"), (247.5, "247.5"), (283.95, "283.95"),
            // 0.94 + 0.06·0.45 computed in binary is 0.9670000000000001; 4 places give 0.967.
            (0.94 + 0.06 * 0.45, "0.967"), (-7.199999999999999, "-7.2"), (0.00004, "0"), (0.00006, "0.0001"),
            (1e12, "1000000000000"), (Double.nan, "null"), (Double.infinity, "null"),
        ])
    func numbers(value: Double, text: String) {
        #expect(JSONValue.number(value).serialized == text)
    }

    /// The writer spells a number digit by digit; Swift's own shortest
    /// spelling of the value rounded to 4 places is the oracle, over every
    /// magnitude a deck or a count can have and around the cut-offs.
    @Test("numbers written digit by digit are Swift's shortest spelling of the rounded value")
    func numbersMatchSwiftsSpelling() {
        var generator = SystemRandomNumberGenerator()
        func oracle(_ value: Double) -> String {
            let rounded = (value * 10_000).rounded() / 10_000
            if rounded == 0 { return "0" }
            if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
            return "\(rounded)"
        }
        var values: [Double] = [1e11 - 0.0001, -(1e11 - 0.0001), 99_999_999_999.9999, 0.0001, -0.0001, 0.00005, 5e-5]
        for exponent in -6...14 {
            for _ in 0..<2_000 {
                let magnitude = pow(10, Double(exponent)) * Double.random(in: 1..<10, using: &generator)
                values.append(Bool.random(using: &generator) ? magnitude : -magnitude)
                // Values already on the 4-place grid, as deck numbers mostly are.
                values.append((magnitude * 10_000).rounded() / 10_000)
            }
        }
        var wrong: [(Double, String, String)] = []
        for value in values where JSONValue.number(value).serialized != oracle(value) {
            wrong.append((value, JSONValue.number(value).serialized, oracle(value)))
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("strings escape quotes, backslashes and control characters")
    func strings() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1B}e\u{7F}é").serialized == #""a\"b\\c\nd\u001be\u007fé""#)
    }

    @Test("objects keep their key order")
    func order() {
        let value = JSONValue.object([("ok", true), ("command", "x"), ("a", .array([1, nil]))])
        #expect(value.serialized == #"{"ok":true,"command":"x","a":[1,null]}"#)
    }

    /// A random tree of every case, its strings drawn from what is escaped and its neighbours.
    static func randomValue(depth: Int, _ generator: inout some RandomNumberGenerator) -> JSONValue {
        let pieces = [
            "a", "é", "日", "👩‍💻", "\"", "\\", "\n", "\u{0}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2027}", " ",
        ]
        func text() -> String {
            (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -100_000...100_000, using: &generator)))
        case 3: return .string(text())
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, &generator) })
        default:
            let keys = Set((0..<Int.random(in: 0...4, using: &generator)).map { _ in text() })
            return .object(keys.map { ($0, randomValue(depth: depth + 1, &generator)) })
        }
    }

    /// Whether Foundation's reading of the text is `value`.
    static func matches(_ value: JSONValue, _ read: Any) -> Bool {
        switch value {
        case .null: return read is NSNull
        case .bool(let flag): return (read as? NSNumber)?.boolValue == flag
        case .number(let number): return (read as? NSNumber)?.doubleValue == number
        case .string(let text): return read as? String == text
        case .verbatim: return false
        case .array(let values):
            guard let items = read as? [Any], items.count == values.count else { return false }
            return zip(values, items).allSatisfy { matches($0, $1) }
        case .object(let members):
            guard let fields = read as? [String: Any], fields.count == members.count else { return false }
            return members.allSatisfy { key, value in fields[key].map { matches(value, $0) } ?? false }
        }
    }

    @Test("random values read back through Foundation's JSONSerialization as written")
    func readsBack() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = JSONValue.object([("v", Self.randomValue(depth: 0, &generator))])
            let text = value.serialized
            let read = try JSONSerialization.jsonObject(with: Data(text.utf8))
            #expect(Self.matches(value, read), "\(text)")
            var streamed = ""
            value.write(to: &streamed)
            #expect(streamed == text)
        }
    }
}
