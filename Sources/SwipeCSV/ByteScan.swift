import SwipeStore

/// Byte searches eight bytes at a time (SWAR: "SIMD within a register") for
/// the import's hot loops, which otherwise test every byte of a million-row
/// file several times over.
///
/// `zeroBytes(w)` sets the high bit of each byte of `w` that is zero, using
/// the borrow of `w - 0x0101…01`; a borrow can also flag the byte *above* a
/// zero byte, never one below, so the lowest flagged byte of any OR of such
/// masks is a true match: exactly what "find the first" needs. The same
/// holds for `belowBytes`. Words are read little-endian, so the lowest byte
/// is the first in memory on any machine.
package enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always) private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// High bits of the bytes equal to `byte`.
    @inline(__always) private static func matches(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (ones &* UInt64(byte)))
    }

    /// High bits of the bytes below `limit` (at most 0x80).
    @inline(__always) private static func matches(_ word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    @inline(__always) private static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// The first index in `start..<end` of `base` holding a quote, CR or LF,
    /// or unless `quoted` a comma: where a CSV field's plain run ends (`end`
    /// when none does). `high` is ORed with every byte before it, so its
    /// high bit says whether the run held non-ASCII bytes.
    package static func csvRunEnd(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, quoted: Bool, high: inout UInt64
    ) -> Int {
        var index = start
        while index + 8 <= end {
            let word = word(base, index)
            var hits = matches(word, equalTo: 0x22) | matches(word, equalTo: 0x0A) | matches(word, equalTo: 0x0D)
            if !quoted { hits |= matches(word, equalTo: 0x2C) }
            if hits != 0 {
                let count = hits.trailingZeroBitCount / 8
                if count > 0 { high |= word & (UInt64.max >> (64 - 8 * count)) }
                return index + count
            }
            high |= word
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte == 0x22 || byte == 0x0A || byte == 0x0D || (!quoted && byte == 0x2C) { break }
            high |= UInt64(byte)
            index += 1
        }
        return index
    }

    /// Whether any of `bytes` is one `JSONText.needsEscape` flags.
    package static func containsJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while index + 8 <= bytes.count {
            let word = word(base, index)
            let hits =
                matches(word, below: 0x20) | matches(word, equalTo: 0x22) | matches(word, equalTo: 0x5C)
                | matches(word, equalTo: 0x7F) | matches(word, equalTo: 0xC2) | matches(word, equalTo: 0xE2)
            if hits != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if JSONText.needsEscape(base[index]) { return true }
            index += 1
        }
        return false
    }

    /// Whether every one of `bytes` is printable ASCII other than the quote
    /// and the backslash (0x20…0x7E less 0x22 and 0x5C).
    package static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index + 8 <= bytes.count {
            let word = word(base, index)
            let hits =
                matches(word, below: 0x20) | matches(word, equalTo: 0x22) | matches(word, equalTo: 0x5C)
                | matches(word, equalTo: 0x7F) | (word & highs)
            if hits != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            index += 1
        }
        return true
    }

    /// The UTF-8 length of the scalar at `index` of `base` (before `end`)
    /// when it is one `String.trimmed(newlines:)` trims, else 0: space and
    /// tab, with `newlines` U+000A…U+000D and U+0085, the space separators
    /// (Zs: U+00A0, U+1680, U+2000…U+200A, U+202F, U+205F, U+3000) and with
    /// `newlines` the line and paragraph separators (U+2028, U+2029).
    /// Spares the import a `String` and a walk of its scalars per field.
    @inline(__always)
    package static func blankLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ end: Int, newlines: Bool) -> Int {
        let lead = base[index]
        if lead < 0x80 { return lead == 0x20 || lead == 0x09 || (newlines && lead >= 0x0A && lead <= 0x0D) ? 1 : 0 }
        switch lead {
        case 0xC2:  // U+0085, U+00A0
            guard index + 1 < end else { return 0 }
            let second = base[index + 1]
            return second == 0xA0 || (newlines && second == 0x85) ? 2 : 0
        case 0xE1:  // U+1680
            guard index + 2 < end else { return 0 }
            return base[index + 1] == 0x9A && base[index + 2] == 0x80 ? 3 : 0
        case 0xE2:  // U+2000…U+200A, U+2028, U+2029, U+202F, U+205F
            guard index + 2 < end else { return 0 }
            let second = base[index + 1], third = base[index + 2]
            if second == 0x80 {
                return (0x80...0x8A).contains(third) || third == 0xAF || (newlines && (third == 0xA8 || third == 0xA9))
                    ? 3 : 0
            }
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3:  // U+3000
            guard index + 2 < end else { return 0 }
            return base[index + 1] == 0x80 && base[index + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// The part of `bytes` (well-formed UTF-8) that `String.trimmed(newlines:)`
    /// keeps: the same scalars, found on the bytes.
    @inline(__always)
    package static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>, newlines: Bool = false) -> Range<Int> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0..<0 }
        // Nearly every value begins and ends with a printable ASCII byte:
        // nothing to trim, and no call.
        let first = base[0], last = base[bytes.count - 1]
        if first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80 { return 0..<bytes.count }
        return trimmedRange(base, bytes.count, newlines: newlines)
    }

    private static func trimmedRange(_ base: UnsafePointer<UInt8>, _ count: Int, newlines: Bool) -> Range<Int> {
        var start = 0, end = count
        while start < end {
            let length = blankLength(base, start, end, newlines: newlines)
            if length == 0 { break }
            start += length
        }
        while end > start {
            var last = end - 1
            while last > start && base[last] & 0xC0 == 0x80 { last -= 1 }
            guard blankLength(base, last, end, newlines: newlines) == end - last else { break }
            end = last
        }
        return start..<end
    }

    /// The first index in `start..<end` of `base` holding a byte of 0x80 or
    /// above (a non-ASCII UTF-8 byte), or `end`.
    package static func firstNonASCII(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        while index + 8 <= end {
            let high = word(base, index) & highs
            if high != 0 { return index + high.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end && base[index] < 0x80 { index += 1 }
        return index
    }
}
