import PropertyBased
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The word-at-a-time scans against the plain byte loops they replace, on
/// random bytes drawn mostly from the values they test for (so matches land
/// at every offset of a word, and across word ends).
@Suite struct ByteScanTests {
    /// Bytes around every boundary the scans test: controls, quote, comma,
    /// backslash, DEL, UTF-8 leads and continuations, and plain letters.
    static let byte = Gen.int(in: 0..<interesting.count).map { interesting[$0] }
    static let interesting: [UInt8] = [
        0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2C, 0x3B, 0x41, 0x5C, 0x7E, 0x7F,
        0x80, 0x9B, 0xBF, 0xC0, 0xC2, 0xC3, 0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        0x61, 0x62, 0x63, 0x64, 0x65,
    ]
    static let bytes = byte.array(of: 0...40)

    @Test func csvRunEndStopsAtTheFirstQuoteLineBreakOrComma() async {
        await propertyCheck(input: Self.bytes, Gen.int(in: 0...40), Gen.bool) { bytes, start, quoted in
            let start = min(start, bytes.count)
            var expected = start
            var expectedHigh: UInt8 = 0
            while expected < bytes.count {
                let byte = bytes[expected]
                if byte == 0x22 || byte == 0x0A || byte == 0x0D || (!quoted && byte == 0x2C) { break }
                expectedHigh |= byte
                expected += 1
            }
            bytes.withUnsafeBufferPointer { buffer in
                var high: UInt64 = 0
                let end =
                    buffer.baseAddress.map {
                        ByteScan.csvRunEnd($0, from: start, to: buffer.count, quoted: quoted, high: &high)
                    } ?? 0
                #expect(end == expected)
                // Only whether a byte at or above 0x80 was passed over matters.
                #expect((high & 0x8080_8080_8080_8080 != 0) == (expectedHigh >= 0x80))
            }
        }
    }

    @Test func jsonEscapeAndPlainASCIIAgreeWithTheByteTests() async {
        await propertyCheck(input: Self.bytes) { bytes in
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteScan.containsJSONEscape(buffer) == bytes.contains(where: JSONText.needsEscape))
                let plain = bytes.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }
                #expect(ByteScan.isPlainASCII(buffer) == plain)
            }
        }
    }

    @Test func firstNonASCIIFindsTheFirstHighByte() async {
        await propertyCheck(input: Self.bytes, Gen.int(in: 0...40)) { bytes, start in
            let start = min(start, bytes.count)
            let expected = bytes[start...].firstIndex { $0 >= 0x80 } ?? bytes.count
            bytes.withUnsafeBufferPointer { buffer in
                let found = buffer.baseAddress.map { ByteScan.firstNonASCII($0, from: start, to: buffer.count) } ?? 0
                #expect(found == expected)
            }
        }
    }

    /// The CSV reader's UTF-8 check accepts exactly what the standard library does.
    @Test func utf8CheckMatchesTheStandardLibrary() async {
        await propertyCheck(input: Self.bytes) { bytes in
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBufferPointer(CSVReader.isValidUTF8) == expected, "\(bytes)")
        }
        for text in [
            "", "ascii only, long enough for words", "é", "王芳", "🌸 and 👩‍👩‍👧‍👦", "\u{10FFFF}",
            "\u{7FF}\u{800}\u{FFFF}\u{10000}",
        ] {
            #expect(Array(text.utf8).withUnsafeBufferPointer(CSVReader.isValidUTF8), "\(text)")
        }
        for bad: [UInt8] in [
            [0xC0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82],
        ] {
            #expect(!bad.withUnsafeBufferPointer(CSVReader.isValidUTF8), "\(bad)")
        }
    }
}
