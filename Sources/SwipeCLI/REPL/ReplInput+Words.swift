import SwipeCore

/// The two lexical rules of a REPL line: how it splits into words, and which
/// words are numbers.
extension ReplInput {
    /// A quote in a line that never closes: what was typed before it (the
    /// command so far) and after it (the unfinished word).
    struct UnclosedQuote: Error {
        var before: String
        var rest: String
    }

    /// A line split into words, and how it ends: inside an open quote, in the
    /// middle of a bare word, or after whitespace (what Tab completion needs).
    struct Lexed {
        /// Every word, the unfinished last one included (its text so far).
        var words: [String]
        /// The quote still open at the end of the line, and where it opened.
        var openQuote: (character: Character, at: String.Index)?
        /// Whether the line ends in whitespace outside quotes (no word under way).
        var endsBetweenWords: Bool
    }

    /// Splits `line` at whitespace, as a shell does: `"…"` and `'…'` keep
    /// spaces inside one word (`history "a b"`), and inside double quotes
    /// `\"` and `\\` stand for `"` and `\`. Quoted and bare parts next to
    /// each other make one word; `""` is an empty word.
    static func words(_ line: String) throws(UnclosedQuote) -> [String] {
        let lexed = lex(line)
        if let open = lexed.openQuote {
            throw UnclosedQuote(
                before: String(line[..<open.at]).trimmingWhitespace,
                rest: String(line[line.index(after: open.at)...]))
        }
        return lexed.words
    }

    /// `words(_:)` without the error: an open quote runs to the end of the line.
    static func lex(_ line: String) -> Lexed {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: (character: Character, at: String.Index)?
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote?.character {
                if character == open {
                    quote = nil
                } else if open == "\"", character == "\\", line.index(after: index) < line.endIndex,
                    ["\"", "\\"].contains(line[line.index(after: index)])
                {
                    index = line.index(after: index)
                    word.append(line[index])
                } else {
                    word.append(character)
                }
            } else if character.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if character == "\"" || character == "'" {
                quote = (character, index)
                inWord = true
            } else {
                word.append(character)
                inWord = true
            }
            index = line.index(after: index)
        }
        if inWord { words.append(word) }
        return Lexed(words: words, openQuote: quote, endsBetweenWords: !inWord)
    }

    /// A command's fixed words and its free text (Documentation/REPL.md,
    /// "Free text"): the first `count` words, read as `words(_:)` reads them
    /// (an id may be quoted), then the rest of the line after the white
    /// space that follows them, exactly as typed: apostrophes, quotes,
    /// backslashes and runs of spaces are the text's own, nothing in it is
    /// parsed. Read by Unicode scalars, not characters: a combining mark,
    /// a zero-width joiner or a variation selector right after the space is
    /// the text's first scalar (as a character it would be glued to the
    /// space, and dropped with it). `words` has fewer than `count` words
    /// when the line ends first; the rest is then empty.
    static func fixedWords(_ line: String, count: Int) throws(UnclosedQuote) -> (words: [String], rest: String) {
        let scalars = line.unicodeScalars
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var quote: (scalar: Unicode.Scalar, at: String.Index)?
        var index = scalars.startIndex
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
        while index < scalars.endIndex, words.count < count {
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
            } else if isSpace(scalar) {
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
        if let open = quote {
            throw UnclosedQuote(
                before: String(line[..<open.at]).trimmingWhitespace, rest: String(line[line.index(after: open.at)...]))
        }
        if words.count < count {
            if inWord { words.append(String(word)) }
            return (words, "")
        }
        while index < scalars.endIndex, isSpace(scalars[index]) { index = scalars.index(after: index) }
        return (words, String(scalars[index...]).trimmingWhitespace)
    }

    /// The value of a plain decimal number (`PlainDecimal`); nil for
    /// anything else Double would read (`0x10`, `nan`, `inf`).
    static func plainDecimal(_ word: String) -> Double? {
        PlainDecimal.value(word)
    }
}
