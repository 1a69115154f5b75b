import Foundation
import PropertyBased
import Testing

@testable import SwipeCSV
@testable import SwipeStore

/// The import's byte-level trimming (`ByteScan.trimmedRange`, and through it
/// `appendTrimmed`, `isBlank` and the discovery columns) against the rule
/// `String.trimmed` documents, Foundation's `.whitespaces` (category Zs and
/// tab) and `.whitespacesAndNewlines` (Z*, U+000A–U+000D, U+0085), written
/// here from the scalars' categories, on strings made mostly of blanks and
/// near-blanks (scalars sharing a blank's first UTF-8 bytes) so every edge
/// case lands at either end. (Not Foundation itself: on Linux it also trims
/// U+200B, a format character, where `String.trimmed` never did.)
@Suite struct ByteTrimTests {
    static func expected(_ text: String, newlines: Bool) -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .spaceSeparator: return true
            case .lineSeparator, .paragraphSeparator: return newlines
            default: return scalar == "\t" || (newlines && ((0x0A...0x0D).contains(scalar.value) || scalar == "\u{85}"))
            }
        }
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    static let scalars: [Unicode.Scalar] = [
        // Blanks: ASCII, line breaks, NEL, the space separators, LS and PS.
        " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}",
        "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        // Their neighbours in UTF-8: same lead byte, not blank.
        "\u{84}", "\u{A1}", "\u{BF}", "\u{1681}", "\u{167F}", "\u{200B}", "\u{2027}", "\u{202A}", "\u{2030}",
        "\u{205E}", "\u{2060}", "\u{3001}", "\u{30A2}", "\u{180E}", "\u{FEFF}",
        // Plain text.
        "a", "Z", "0", ";", "\0", "é", "ሰ", "ก", "週", "😀",
    ]
    static let text = Gen.int(in: 0..<scalars.count).map { scalars[$0] }.array(of: 0...8).map {
        String(String.UnicodeScalarView($0))
    }

    @Test func trimmedRangeKeepsWhatFoundationKeeps() async {
        await propertyCheck(input: Self.text, Gen.bool) { text, newlines in
            let expected = Self.expected(text, newlines: newlines)
            let bytes = Array(text.utf8)
            let kept = bytes.withUnsafeBufferPointer {
                String(decoding: $0[ByteScan.trimmedRange($0, newlines: newlines)], as: UTF8.self)
            }
            #expect(kept == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            let blank = bytes.withUnsafeBufferPointer { $0.isBlank(newlines: newlines) }
            #expect(blank == expected.isEmpty)
            var row = ProfileRow()
            bytes.withUnsafeBufferPointer { row.appendTrimmed($0, newlines: newlines) }
            #expect(String(decoding: row.bytes, as: UTF8.self) == expected)
        }
    }

    @Test func everyBlankScalarAloneIsTrimmed() {
        for scalar in Self.scalars {
            for newlines in [false, true] {
                let text = "x" + String(scalar) + "y" + String(scalar)
                let expected = Self.expected(text, newlines: newlines)
                let bytes = Array(text.utf8)
                let kept = bytes.withUnsafeBufferPointer {
                    String(decoding: $0[ByteScan.trimmedRange($0, newlines: newlines)], as: UTF8.self)
                }
                #expect(kept == expected, "U+\(String(scalar.value, radix: 16)) newlines \(newlines)")
            }
        }
    }

    /// Every item of a `photos` field is an `https://` URL, by a plain loop.
    @Test func plainURLsAgreeWithAnItemByItemReading() async {
        let pieces = ["https://", "https://a", "http://a", " ", "\t", ";", "x", "https:/", "h", "é"]
        let field = Gen.int(in: 0..<pieces.count).map { pieces[$0] }.array(of: 0...6).map { $0.joined() }
        await propertyCheck(input: field) { field in
            // Each item, after its leading blanks, is empty or `https://` and at
            // least one more byte of the field (which may be the `;` that ends it).
            let bytes = Array(field.utf8)
            var expected = true
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x3B { end += 1 }
                var first = start
                while first < end && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
                if first < end {
                    let https = Array("https://".utf8)
                    if !(first + https.count < bytes.count && Array(bytes[first..<first + https.count]) == https) {
                        expected = false
                    }
                }
                start = end + 1
            }
            let plain = bytes.withUnsafeBufferPointer { ProfilePhotos.isPlainURLs($0) }
            #expect(plain == expected, "\(field)")
        }
    }
}
