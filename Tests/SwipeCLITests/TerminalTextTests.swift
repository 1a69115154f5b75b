import Testing

@testable import SwipeCLI
@testable import SwipeSession

@Suite struct TerminalTextTests {
    @Test func stripsEscapeSequencesAndControls() {
        #expect(TerminalText.sanitized("a\u{1B}[2Jb") == "a\u{FFFD}[2Jb")
        #expect(TerminalText.sanitized("x\u{7}y\u{0}z") == "x\u{FFFD}y\u{FFFD}z")
        #expect(TerminalText.sanitized("c1:\u{9B}31m") == "c1:\u{FFFD}31m")
        #expect(TerminalText.sanitized("tab\there") == "tab here")
        #expect(TerminalText.sanitized("two\nlines") == "two lines")
        #expect(TerminalText.sanitized("two\nlines", keepNewlines: true) == "two\nlines")
        #expect(TerminalText.sanitized("evil\u{202E}txt") == "eviltxt")
        #expect(TerminalText.sanitized("Zoë 🌸 日本") == "Zoë 🌸 日本")
    }

    @Test func countsColumns() {
        #expect(TerminalText.displayWidth("abc") == 3)
        #expect(TerminalText.displayWidth("日本語") == 6)
        #expect(TerminalText.displayWidth("한국") == 4)
        #expect(TerminalText.displayWidth("🌸") == 2)
        #expect(TerminalText.displayWidth("👩‍💻") == 2)
        #expect(TerminalText.displayWidth("e\u{301}") == 1)
        // U+2764 is text-presentation and VS16 is a mark: one column, as
        // wcwidth (tmux, VTE, xterm) draws it.
        #expect(TerminalText.displayWidth("❤️") == 1)
        // र ा ह ु ल ␠ व र ् म ा: the spacing vowel signs (Mc) take a column each,
        // the u-sign and the virama (Mn) none: 1+1+1+0+1+1+1+1+0+1+1 = 9.
        #expect(TerminalText.displayWidth("राहुल वर्मा") == 9)
        // ส ว ั ส ด ี: the two vowel marks above are Mn: 4.
        #expect(TerminalText.displayWidth("สวัสดี") == 4)
        #expect(TerminalText.displayWidth("🇵🇹") == 2)
        #expect(TerminalText.displayWidth("👍🏽") == 4)  // the skin tone draws as its own wide glyph in tmux
        #expect(TerminalText.displayWidth("") == 0)
    }

    @Test func padsAndTruncatesByColumns() {
        #expect(TerminalText.padded("日本", to: 6) == "日本  ")
        #expect(TerminalText.padded("abc", to: 5, alignRight: true) == "  abc")
        #expect(TerminalText.truncated("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(TerminalText.displayWidth(TerminalText.padded("日本語テキスト", to: 7)) == 7)
    }
}

@Suite("Cutting text to a width")
struct TerminalTextFittingTests {
    /// The definition, in two passes: whole when it fits, else the longest
    /// prefix of whole clusters that leaves a column for "…".
    static func reference(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if TerminalText.displayWidth(text) <= width { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = TerminalText.displayWidth(String(character))
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    @Test func onePassAgreesWithTheDefinition() {
        let pieces = ["a", " ", "é", "e\u{301}", "日", "👩‍💻", "🇵🇹", "र्मा", "ส", "ั", "\u{200B}", "Ｆ"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let width = Int.random(in: 0...12, using: &generator)
            let (cut, used) = TerminalText.fitted(text, toWidth: width)
            #expect(cut == Self.reference(text, width), "\(text) to \(width)")
            #expect(used == TerminalText.displayWidth(cut), "\(text) to \(width)")
            #expect(
                TerminalText.padded(text, to: width).isEmpty
                    || TerminalText.displayWidth(TerminalText.padded(text, to: width)) == width)
        }
    }

    @Test func sanitizingScanFindsEveryControl() {
        for scalar in [0x0, 0x1B, 0x7F, 0x85, 0x9B, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069] {
            let text = "ok" + String(Unicode.Scalar(UInt32(scalar))!) + "ok"
            #expect(TerminalText.mayNeedSanitizing(text), "U+\(String(scalar, radix: 16))")
            #expect(TerminalText.sanitized(text) != text)
        }
        for clean in ["plain", "日本語 👩‍💻", "\u{2028}x", "\u{A0}nbsp", "\u{200D}"] {
            #expect(TerminalText.sanitized(clean) == clean || TerminalText.mayNeedSanitizing(clean), "\(clean)")
        }
    }
}

@Suite("Width table")
struct TerminalTextWidthTableTests {
    /// The table and the CJK shortcut give what the property lookups give,
    /// for every scalar in the Basic Multilingual Plane and the emoji planes.
    @Test func shortcutsAgreeWithTheLookups() {
        func lookedUp(_ scalar: Unicode.Scalar) -> Int {
            let v = scalar.value
            if v < 0x7F { return v < 0x20 ? 0 : 1 }
            if v <= 0x9F { return 0 }
            if v == 0xAD { return 0 }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: break
            }
            if v == 0x200B || (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
            if v >= 0x1100 && TerminalText.isWide(v) { return 2 }
            if v >= 0x231A && scalar.properties.isEmojiPresentation { return 2 }
            return 1
        }
        var mismatches: [String] = []
        for value in Array(0..<0x1_0000) + Array(0x1F000..<0x1FB00) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            if TerminalText.scalarWidth(scalar) != lookedUp(scalar) { mismatches.append(String(value, radix: 16)) }
        }
        #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
    }
}
