import SwipeCore

/// The two lexical rules of a REPL line: how it splits into words, and which
/// words are numbers.
extension Command {
    /// A quote in a line that never closes: what was typed before it (the
    /// command so far) and after it (the unfinished word).
    package struct UnclosedQuote: Error {
        var before: String
        var rest: String
    }

    /// A line split into words, and how it ends: inside an open quote, in the
    /// middle of a bare word, or after whitespace (what Tab completion needs).
    package struct Lexed {
        /// Every word, the unfinished last one included (its text so far).
        package var words: [String]
        /// The quote still open at the end of the line, and where it opened.
        package var openQuote: (character: Character, at: String.Index)?
        /// Whether the line ends in whitespace outside quotes (no word under way).
        package var endsBetweenWords: Bool
    }

    /// Splits `line` at whitespace, as a shell does: `"…"` and `'…'` keep
    /// spaces inside one word (`history "a b"`), and inside double quotes
    /// `\"` and `\\` stand for `"` and `\`. Quoted and bare parts next to
    /// each other make one word; `""` is an empty word.
    package static func words(_ line: String) throws(UnclosedQuote) -> [String] {
        let lexed = lex(line)
        if let open = lexed.openQuote {
            throw UnclosedQuote(
                before: String(line[..<open.at]).trimmingWhitespace,
                rest: String(line[line.index(after: open.at)...]))
        }
        return lexed.words
    }

    /// `words(_:)` without the error: an open quote runs to the end of the line.
    package static func lex(_ line: String) -> Lexed {
        let scanned = scan(line, stopAfter: nil)
        return Lexed(
            words: scanned.words, openQuote: scanned.openQuote.map { (Character($0.scalar), $0.at) },
            endsBetweenWords: scanned.endsBetweenWords)
    }

    /// A command's fixed words and its free text (Documentation/REPL.md,
    /// "Free text"): the first `count` words, read as `words(_:)` reads them
    /// (an id may be quoted), then the rest of the line after the white
    /// space that follows them, exactly as typed: apostrophes, quotes,
    /// backslashes and runs of spaces are the text's own, nothing in it is
    /// parsed. `words` has fewer than `count` words when the line ends
    /// first; the rest is then empty.
    package static func fixedWords(_ line: String, count: Int) throws(UnclosedQuote) -> (words: [String], rest: String)
    {
        let scanned = scan(line, stopAfter: count)
        if let open = scanned.openQuote {
            throw UnclosedQuote(
                before: String(line[..<open.at]).trimmingWhitespace, rest: String(line[line.index(after: open.at)...]))
        }
        let scalars = line.unicodeScalars
        var index = scanned.end
        while index < scalars.endIndex, scalars[index].properties.isWhitespace { index = scalars.index(after: index) }
        return (scanned.words, String(scalars[index...]).trimmingWhitespace)
    }

    /// The one lexer of a line, by Unicode scalars rather than characters:
    /// a combining mark, a zero-width joiner or a variation selector right
    /// after a space starts the next word (as a character it would be glued
    /// to the space, and dropped with it). Splits at white space outside
    /// quotes; `"…"` and `'…'` keep spaces inside one word, and inside
    /// double quotes `\"` and `\\` stand for `"` and `\`. With `stopAfter`,
    /// it stops once that many words are complete; `end` is where it stopped.
    private static func scan(_ line: String, stopAfter limit: Int?) -> (
        words: [String], openQuote: (scalar: Unicode.Scalar, at: String.Index)?, endsBetweenWords: Bool,
        end: String.Index
    ) {
        let scalars = line.unicodeScalars
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var quote: (scalar: Unicode.Scalar, at: String.Index)?
        var index = scalars.startIndex
        while index < scalars.endIndex, limit.map({ words.count < $0 }) ?? true {
            let scalar = scalars[index]
            if let open = quote?.scalar {
                if scalar == open {
                    quote = nil
                } else if open == "\"", scalar == "\\", scalars.index(after: index) < scalars.endIndex,
                    ["\"", "\\"].contains(scalars[scalars.index(after: index)])
                {
                    index = scalars.index(after: index)
                    word.append(scalars[index])
                } else {
                    word.append(scalar)
                }
            } else if scalar.properties.isWhitespace {
                if inWord { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            } else if scalar == "\"" || scalar == "'" {
                quote = (scalar, index)
                inWord = true
            } else {
                word.append(scalar)
                inWord = true
            }
            index = scalars.index(after: index)
        }
        // Stopped early, the last word was complete; at the end of the line
        // the word under way (an open quote's too) is the last one.
        let stopped = limit.map { words.count >= $0 } ?? false
        if inWord && !stopped { words.append(String(word)) }
        return (words, quote, !inWord || stopped, index)
    }

    /// The value of a plain decimal number (`PlainDecimal`); nil for
    /// anything else Double would read (`0x10`, `nan`, `inf`).
    package static func plainDecimal(_ word: String) -> Double? {
        PlainDecimal.value(word)
    }
}
