import Testing
@testable import SwipeCLI

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
        #expect(TerminalText.displayWidth("❤️") == 2)
        #expect(TerminalText.displayWidth("") == 0)
    }

    @Test func padsAndTruncatesByColumns() {
        #expect(TerminalText.padded("日本", to: 6) == "日本  ")
        #expect(TerminalText.padded("abc", to: 5, alignRight: true) == "  abc")
        #expect(TerminalText.truncated("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(TerminalText.displayWidth(TerminalText.padded("日本語テキスト", to: 7)) == 7)
    }
}
