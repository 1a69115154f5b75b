/// Text on its way to a terminal: control characters removed, widths counted
/// in terminal columns.
///
/// Profile text comes from CSV files that anyone can write, so it must never
/// be able to drive the terminal (README, "Command line", Output): every renderer passes profile
/// text through `sanitized` before printing it, and lays out tables with
/// `displayWidth`, which counts CJK and emoji as two columns.
public enum TerminalText {
    /// `text` without C0/C1 control characters, DEL, or bidi/format controls
    /// that can reorder what a reader sees. A newline is kept (as is) only
    /// when `keepNewlines` is set; a tab becomes a space; any other control
    /// character becomes U+FFFD so that a reader sees something was there.
    public static func sanitized(_ text: String, keepNewlines: Bool = false) -> String {
        if !mayNeedSanitizing(text) { return text }
        var out = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepNewlines:
                out.append(scalar)
            case 0x0A, 0x0D, 0x09:
                out.append(" ")
                changed = true
            case 0x00...0x1F, 0x7F...0x9F:
                out.append("\u{FFFD}")
                changed = true
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                // Bidi overrides/isolates: a CSV could make text read backwards.
                changed = true
            default:
                out.append(scalar)
            }
        }
        return changed ? String(out) : text
    }

    /// `text` with every control character written as a visible escape
    /// (`\x1B` for C0, DEL and C1, `\u202E` for bidi and format controls),
    /// for data formats (CSV, JSON) shown on a terminal: unlike `sanitized`
    /// nothing is lost from sight, yet nothing can drive the terminal. Line
    /// feeds and tabs stay (CSV quotes a field holding one); a backslash
    /// is doubled only when the text has a control character to escape, so
    /// clean text is shown as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && isControl($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if scalar != "\n" && scalar != "\t" && isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out +=
                    scalar.value < 0x100
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// JSON text for a terminal: every control character left in it (after
    /// `JSONText` escaped C0 and C1, only the bidi controls can be, and only
    /// inside strings) written as a `\uXXXX` escape: the same JSON data,
    /// nothing that reorders what a reader sees.
    public static func escapingControlsInJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isControl) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0, DEL, C1, and the bidi controls `sanitized` removes.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The widest profile text (a name, an id) a one-line message shows.
    public static let oneLineWidth = 60

    /// Profile text for a one-line message: sanitized, and cut to
    /// `width` columns with "…" (a 100,000-character name must not flood
    /// the terminal).
    public static func oneLine(_ text: String, width: Int = oneLineWidth) -> String {
        truncated(sanitized(text), toWidth: width)
    }

    /// Whether `text` is safe to print as is (what `sanitized` would not change).
    public static func isClean(_ text: String, keepNewlines: Bool = false) -> Bool {
        sanitized(text, keepNewlines: keepNewlines) == text
    }

    /// Columns `text` occupies in a terminal, counted as terminals count
    /// them (wcwidth per code point, as tmux, VTE and xterm do): 2 for wide
    /// (CJK, fullwidth) and emoji-presentation characters, 0 for
    /// non-spacing and enclosing marks, format characters and Hangul vowel
    /// and final jamo, 1 otherwise, spacing marks included (the vowel sign
    /// in "रा" takes its own column). Two exceptions are per grapheme
    /// cluster: a ZWJ emoji sequence ("👩‍💻") is drawn as one wide glyph, and
    /// so is a flag (two regional indicators).
    public static func displayWidth(_ text: String) -> Int {
        // Printable ASCII is one column a byte: no cluster walk needed.
        if isPrintableASCII(text) { return text.utf8.count }
        var width = 0
        for character in text {
            width += clusterWidth(character)
        }
        return width
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut.
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        fitted(text, toWidth: width).text
    }

    /// `text` cut to at most `width` columns (ending in "…" when cut), and
    /// the columns the result takes: one pass, which stops at the cut.
    package static func fitted(_ text: String, toWidth width: Int) -> (text: String, width: Int) {
        guard width > 0 else { return ("", 0) }
        if isPrintableASCII(text) {
            let count = text.utf8.count
            return count <= width
                ? (text, count) : (String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…", width)
        }
        var used = 0
        var offset = 0  // UTF-8 bytes of the clusters before this one
        var cut: (bytes: Int, width: Int)?
        for character in text {
            let w = clusterWidth(character)
            if cut == nil && used + w > width - 1 { cut = (offset, used) }
            used += w
            if used > width, let cut {
                return (String(decoding: text.utf8.prefix(cut.bytes), as: UTF8.self) + "…", cut.width + 1)
            }
            offset += character.utf8.count
        }
        return (text, used)
    }

    /// Whether `text` may hold something `sanitized` changes: a C0 or C1
    /// control, DEL, or a bidi control (U+200E/F, U+202A–E, U+2066–9). A
    /// byte scan, so clean text (nearly all of it) costs no scalar walk.
    package static func mayNeedSanitizing(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80 || bytes[index + 1] == 0x81 {
                    let third = bytes[index + 2]
                    if bytes[index + 1] == 0x80
                        ? (third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third))
                        : (0xA6...0xA9).contains(third)
                    {
                        return true
                    }
                }
                index += 1
            }
            return false
        }
    }

    /// `text` padded with spaces on the right (or left, with `alignRight`) to
    /// exactly `width` columns, truncating first if it is wider.
    /// Whether every byte of `text` is printable ASCII (0x20–0x7E): the
    /// common case, which needs no scalar or cluster walk.
    package static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            return true
        }
    }

    public static func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let (cut, used) = fitted(text, toWidth: width)
        let pad = String(repeating: " ", count: max(0, width - used))
        return alignRight ? pad + cut : cut + pad
    }

    package static func clusterWidth(_ character: Character) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        // One scalar (nearly every cluster): its own width.
        guard let second = scalars.next() else { return scalarWidth(first) }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // a flag
        var width = scalarWidth(first) + scalarWidth(second)
        var joined = second.value == 0x200D
        while let scalar = scalars.next() {
            if scalar.value == 0x200D { joined = true }
            width += scalarWidth(scalar)
        }
        return joined && first.properties.isEmoji ? 2 : width
    }

    package static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0x3000 { return Int(smallWidths[Int(v)]) }
        return computedWidth(scalar)
    }

    /// `computedWidth` of every scalar below U+3000 (Latin, Greek, Cyrillic,
    /// Arabic, Indic scripts, Thai, Hangul jamo…), worked out once: a table
    /// column of a million rows asks for these millions of times, and each
    /// Unicode property lookup is a search.
    package static let smallWidths: [UInt8] = (0..<0x3000).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return 1 }  // surrogates: not scalars
        return UInt8(computedWidth(scalar))
    }

    package static func computedWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v <= 0x9F { return 0 }
        if v < 0x300 { return v == 0xAD ? 0 : 1 }  // U+00AD SOFT HYPHEN is a format character
        // CJK ideographs, kana and Hangul syllables: wide, no marks among them.
        if (0x3041...0x3098).contains(v) || (0x309B...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v)
        {
            return 2
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        if v >= 0x1100 && isWide(v) { return 2 }
        if v >= 0x231A && scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, EastAsianWidth.txt, condensed).
    package static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1,
            0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA,
            0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C,
            0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
            0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
            0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
            0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
