/// Minimal JSON text for the shapes swipe writes: strings and arrays of
/// strings. Used for the stored `photos`/`interests` columns and by the
/// command-line JSON output, so both escape the same way.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else (any script, emoji) kept as is.
    public static func quoted(_ text: String) -> String {
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C1 controls too: U+009B is CSI to a terminal that reads 8-bit controls.
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether a UTF-8 byte may start something `quoted` escapes (0xC2 leads
    /// the C1 controls U+0080–U+009F, 0xE2 leads U+2028 and U+2029); a string
    /// with none is copied whole, not by scalar.
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// `items` as a JSON array of strings.
    public static func array(_ items: [String]) -> String {
        "[" + items.map(quoted).joined(separator: ",") + "]"
    }
}
