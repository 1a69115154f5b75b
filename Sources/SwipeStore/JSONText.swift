/// Minimal JSON text for the shapes swipe writes: strings and arrays of
/// strings. Used for the stored `photos`/`interests` columns and by the
/// command-line JSON output, so both escape the same way.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else (any script, emoji) kept as is.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` to `bytes` as a JSON string literal, as `quoted`
    /// spells it: `\"`, `\\`, `\n`, `\r`, `\t`; the other C0 controls,
    /// DEL, the C1 controls (U+009B is CSI to a terminal that reads 8-bit
    /// controls) and U+2028/U+2029 as `\u` and four lowercase hex digits.
    ///
    /// The one spelling of that rule. It works on UTF-8 bytes and copies
    /// the runs between escapes whole: every JSON line swipe writes (a deck
    /// answer is a few KB of names, bios and photos) goes through here, and
    /// appending scalar by scalar to a `String` was a third of the REPL's
    /// time in JSON mode.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            let count = utf8.count
            var copied = 0
            var index = 0
            while index < count {
                let byte = utf8[index]
                guard needsEscape(byte) else {
                    index += 1
                    continue
                }
                // How many bytes from `index` one escape replaces, and with what.
                let length: Int
                let code: UInt32
                switch byte {
                case 0xC2:
                    // U+0080–U+009F are C2 80–C2 9F; anything else after C2 is kept.
                    guard index + 1 < count, (0x80...0x9F).contains(utf8[index + 1]) else {
                        index += 1
                        continue
                    }
                    (length, code) = (2, UInt32(utf8[index + 1]))
                case 0xE2:
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                    guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
                    else {
                        index += 1
                        continue
                    }
                    (length, code) = (3, utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                default: (length, code) = (1, UInt32(byte))
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<index]))
                bytes.append(0x5C)
                switch code {
                case 0x22: bytes.append(0x22)
                case 0x5C: bytes.append(0x5C)
                case 0x0A: bytes.append(0x6E)
                case 0x0D: bytes.append(0x72)
                case 0x09: bytes.append(0x74)
                default:
                    bytes.append(0x75)
                    for shift in stride(from: 12, through: 0, by: -4) {
                        bytes.append(hexDigits[Int((code >> UInt32(shift)) & 0xF)])
                    }
                }
                index += length
                copied = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<count]))
        }
        bytes.append(0x22)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether a UTF-8 byte may start something `quoted` escapes (0xC2 leads
    /// the C1 controls U+0080–U+009F, 0xE2 leads U+2028 and U+2029); the
    /// bytes between them are copied as they are.
    package static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// `items` as a JSON array of strings.
    public static func array(_ items: [String]) -> String {
        "[" + items.map(quoted).joined(separator: ",") + "]"
    }

    /// The strings of a JSON array of strings (what `array` writes), or nil
    /// when `text` is not one. A byte-level reader: the stored `photos` and
    /// `interests` of every listed profile go through it, and Foundation's
    /// JSONSerialization cost more than the query.
    public static func strings(fromArray text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var index = 0
            func skipBlanks() {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            }
            func hex4() -> UInt32? {
                guard index + 4 <= bytes.count else { return nil }
                var value: UInt32 = 0
                for byte in bytes[index..<index + 4] {
                    let digit: UInt8
                    switch byte {
                    case 0x30...0x39: digit = byte - 0x30
                    case 0x41...0x46: digit = byte - 0x41 + 10
                    case 0x61...0x66: digit = byte - 0x61 + 10
                    default: return nil
                    }
                    value = value << 4 | UInt32(digit)
                }
                index += 4
                return value
            }
            skipBlanks()
            guard index < bytes.count, bytes[index] == 0x5B else { return nil }  // [
            index += 1
            var items: [String] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == 0x5D { return index + 1 == bytes.count ? [] : nil }
            while true {
                skipBlanks()
                guard index < bytes.count, bytes[index] == 0x22 else { return nil }  // "
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C { index += 1 }
                guard index < bytes.count else { return nil }
                var item: String
                if bytes[index] == 0x22 {
                    item = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                } else {
                    var scalars = String.UnicodeScalarView()
                    var run = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    while index < bytes.count, bytes[index] != 0x22 {
                        if bytes[index] != 0x5C {
                            let runStart = index
                            while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C { index += 1 }
                            run += String(
                                decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                            continue
                        }
                        index += 1
                        guard index < bytes.count else { return nil }
                        let escape = bytes[index]
                        index += 1
                        let scalar: Unicode.Scalar
                        switch escape {
                        case 0x22: scalar = "\""
                        case 0x5C: scalar = "\\"
                        case 0x2F: scalar = "/"
                        case 0x62: scalar = "\u{8}"
                        case 0x66: scalar = "\u{C}"
                        case 0x6E: scalar = "\n"
                        case 0x72: scalar = "\r"
                        case 0x74: scalar = "\t"
                        case 0x75:
                            guard var value = hex4() else { return nil }
                            if (0xD800...0xDBFF).contains(value) {
                                guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                                    return nil
                                }
                                index += 2
                                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                            }
                            guard let decoded = Unicode.Scalar(value) else { return nil }
                            scalar = decoded
                        default: return nil
                        }
                        scalars.removeAll()
                        scalars.append(scalar)
                        run += String(scalars)
                    }
                    guard index < bytes.count else { return nil }
                    item = run
                }
                index += 1  // the closing quote
                items.append(item)
                skipBlanks()
                guard index < bytes.count else { return nil }
                if bytes[index] == 0x2C { index += 1; continue }  // ,
                guard bytes[index] == 0x5D else { return nil }  // ]
                index += 1
                skipBlanks()
                return index == bytes.count ? items : nil
            }
        }
    }
}
