import SwipeCore
import Testing

@testable import SwipeCLI
@testable import SwipeSession

@Suite struct WordWrapTests {
    @Test func helpRowsHangUnderTheirSecondColumn() {
        let row = "  view [compact|full]   under the picture: one line of numbers, or every card's pose too"
        #expect(
            TerminalText.wrapped(row, width: 60) == [
                "  view [compact|full]   under the picture: one line of",
                "                        numbers, or every card's pose too",
            ])
    }

    @Test func proseHangsUnderItsLeadingSpaces() {
        #expect(
            TerminalText.wrapped("  Ends the session, saving each decision as it is made", width: 24) == [
                "  Ends the session,",
                "  saving each decision",
                "  as it is made",
            ])
    }

    @Test func aLineThatFitsIsUntouched() {
        #expect(TerminalText.wrapped("like  ♥", width: 7) == ["like  ♥"])
    }

    @Test func aWordWiderThanTheLineIsCut() {
        #expect(TerminalText.wrapped("see abcdefghij", width: 6) == ["see", "abcdef", "ghij"])
    }

    @Test func wideCharactersCountTwoColumns() {
        // 日本 takes 4 columns: "a 日本 b" is 8 wide (6 characters), "a 日本" 6.
        #expect(TerminalText.wrapped("a 日本 b", width: 6) == ["a 日本", "b"])
    }

    /// Over random lines: no line is wider than asked, no word is broken
    /// unless it is wider than a line, and the words come back in order.
    @Test func randomLinesKeepTheirWordsWithinTheWidth() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<500 {
            let width = Int.random(in: 12...90, using: &generator)
            let words = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement()! })
            }
            let line = words.joined(separator: " ")
            let lines = TerminalText.wrapped(line, width: width)
            #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= width }, "\(width): \(lines)")
            let rejoined = lines.flatMap { $0.split(separator: " ").map(String.init) }
            #expect(rejoined == words, "\(width): \(line) → \(lines)")
        }
    }

    /// What a session prints at a terminal of `width` columns for `line`,
    /// up to the deck's picture (which has its own width tests).
    static func prose(_ line: String, width: Int) throws -> [String] {
        var session = try Fixture.session(.text(.plain))
        session.layout.width = width
        let lines = session.answer(line).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return Array(lines.prefix { !$0.contains("╭") && !$0.contains("( ★ )") })
    }

    /// The first-hour defect (issue 24): at 80 columns `help` broke words
    /// ("from whe / re it began"). At each width, `help`, a command's help and
    /// an error fit the width and keep every word whole: their words, read
    /// in order, are those of the same answer at a width where nothing wraps.
    @Test(
        "help, help COMMAND and error lines wrap at word boundaries to the terminal's width",
        arguments: [40, 60, 80])
    func sessionProseWrapsAtWords(width: Int) throws {
        for line in ["help", "help chat", "help me", "help undo", "physics tantn", "drag 1 2 3 4 5 6 7 8 9 10"] {
            let narrow = try Self.prose(line, width: width)
            let wide = try Self.prose(line, width: 1000)
            #expect(narrow.count > 0)
            #expect(
                narrow.allSatisfy { TerminalText.displayWidth($0) <= width },
                "\(line) at \(width):\n\(narrow.joined(separator: "\n"))")
            let words = { (lines: [String]) in lines.flatMap { $0.split(separator: " ").map(String.init) } }
            #expect(words(narrow) == words(wide), "\(line) at \(width):\n\(narrow.joined(separator: "\n"))")
        }
    }
}
