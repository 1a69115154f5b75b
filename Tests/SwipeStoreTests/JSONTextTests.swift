import Foundation
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The byte-level reader of stored JSON string arrays, against Foundation's
/// JSONSerialization as the independent oracle.
@Suite struct JSONTextTests {
    static let alphabet: [String] = [
        "a", "Z", " ", ",", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}",
        "\u{2028}", "é", "日", "👩‍💻", "🇵🇹", "ा",
    ]

    static func randomItems(_ generator: inout some RandomNumberGenerator) -> [String] {
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                .joined()
        }
    }

    @Test func readsWhatArrayWrites() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let items = Self.randomItems(&generator)
            #expect(JSONText.strings(fromArray: JSONText.array(items)) == items, "\(items)")
        }
    }

    @Test func agreesWithJSONSerialization() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let items = Self.randomItems(&generator)
            // Foundation escapes differently (\/ and \u for other controls): another writer to read.
            let data = try JSONSerialization.data(withJSONObject: items, options: [.fragmentsAllowed])
            let text = String(decoding: data, as: UTF8.self)
            let oracle = try JSONSerialization.jsonObject(with: data) as? [String]
            #expect(JSONText.strings(fromArray: text) == oracle, "\(text)")
        }
    }

    /// The escaping rule written the plain way, scalar by scalar, as the
    /// oracle for `JSONText.append`'s byte scan.
    static func quotedByScalars(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Neighbours of what is escaped: the C2 and E2 lead bytes with
    /// continuation bytes just inside and just outside the escaped ranges.
    static let edges: [String] = [
        "\u{80}", "\u{9F}", "\u{A0}", "\u{BF}", "\u{C2}", "\u{E2}", "\u{2027}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{20AC}", "\u{2080}", "\u{1F}", "\u{20}", "\u{7E}", "\u{7F}",
    ]

    @Test func escapesAsTheScalarRuleDoes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                (Self.alphabet + Self.edges).randomElement(using: &generator)!
            }.joined()
            #expect(JSONText.quoted(text) == Self.quotedByScalars(text), "\(text.debugDescription)")
        }
        for edge in Self.edges + Self.alphabet {
            #expect(JSONText.quoted(edge + edge) == Self.quotedByScalars(edge + edge), "\(edge.debugDescription)")
        }
    }

    @Test func byHand() {
        #expect(JSONText.strings(fromArray: "[]") == [])
        #expect(JSONText.strings(fromArray: " [ \"a\" , \"b\\u00e9\\ud83d\\ude00\" ] ") == ["a", "bé😀"])
        for broken in ["", "[", "[\"a\"", "[\"a\",]", "[a]", "[\"\\x\"]", "[\"\\ud83d\"]", "[] x", "{\"a\":1}"] {
            #expect(JSONText.strings(fromArray: broken) == nil, "\(broken)")
        }
    }
}
