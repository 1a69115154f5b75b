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

    @Test func byHand() {
        #expect(JSONText.strings(fromArray: "[]") == [])
        #expect(JSONText.strings(fromArray: " [ \"a\" , \"b\\u00e9\\ud83d\\ude00\" ] ") == ["a", "bé😀"])
        for broken in ["", "[", "[\"a\"", "[\"a\",]", "[a]", "[\"\\x\"]", "[\"\\ud83d\"]", "[] x", "{\"a\":1}"] {
            #expect(JSONText.strings(fromArray: broken) == nil, "\(broken)")
        }
    }
}
