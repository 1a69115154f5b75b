import SwipeSession

extension TerminalText {
    /// `line` broken at spaces into lines of at most `width` columns, so a
    /// terminal never breaks a word in two ("from whe / re it began").
    ///
    /// Continuation lines hang under the line's text: under its first
    /// column of text after the leading spaces, or, for a two-column row
    /// such as a help listing (`  drag DX DY      move the top card …`),
    /// under the second column, which starts after the first run of two or
    /// more spaces (unless that leaves fewer than 20 columns: then four
    /// columns in). A word wider than the room left is cut where it must be.
    /// A line that fits, or a width too small to hang anything under, comes
    /// back as it is.
    /// `hang` sets the continuation lines' indent instead (under the text
    /// after "error: ", say).
    public static func wrapped(_ line: String, width: Int, hang: Int? = nil) -> [String] {
        guard width > 0, displayWidth(line) > width else { return [line] }
        // A second column too far right to leave 20 columns of text
        // hangs under the leading spaces instead; too narrow a terminal
        // for even that gets the line as it is.
        var indent = hang ?? hangingIndent(of: line)
        if indent > width - 20 { indent = min(indent, line.prefix { $0 == " " }.count + 4) }
        guard indent <= width / 2 || indent < width - 8 else { return [line] }
        let hang = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        // Each piece: a word with the spaces before it, so the layout of the
        // line's first columns (the padding of a listing) is kept.
        for piece in pieces(of: line) {
            let pieceWidth = displayWidth(piece)
            if currentWidth + pieceWidth <= width || current.allSatisfy({ $0 == " " }) {
                current += piece
                currentWidth += pieceWidth
                continue
            }
            lines.append(current)
            var word = String(piece.drop { $0 == " " })
            // A word longer than a whole line is cut.
            while indent + displayWidth(word) > width {
                let (head, _) = splitAtWidth(word, width - indent)
                lines.append(hang + head)
                word = String(word.dropFirst(head.count))
            }
            current = hang + word
            currentWidth = indent + displayWidth(word)
        }
        if !current.allSatisfy({ $0 == " " }) || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `text`'s lines, each wrapped to `width`.
    public static func wrappedLines(_ text: String, width: Int, hang: Int? = nil) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
            wrapped(String($0), width: width, hang: hang)
        }
    }

    /// Where continuation lines start: after the first gap of two spaces
    /// that follows text, else after the leading spaces.
    static func hangingIndent(of line: String) -> Int {
        let characters = Array(line)
        let leading = characters.prefix { $0 == " " }.count
        var index = leading
        while index + 1 < characters.count {
            if characters[index] == " " && characters[index + 1] == " " {
                var end = index
                while end < characters.count && characters[end] == " " { end += 1 }
                guard end < characters.count else { break }
                return displayWidth(String(characters[..<end]))
            }
            index += 1
        }
        return leading
    }

    /// The line as words, each with the spaces that precede it.
    private static func pieces(of line: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inWord = false
        for character in line {
            if character == " " && inWord {
                pieces.append(current)
                current = ""
                inWord = false
            }
            if character != " " { inWord = true }
            current.append(character)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The longest prefix of `word` that fits in `width` columns (at least
    /// one character), and its width.
    private static func splitAtWidth(_ word: String, _ width: Int) -> (String, Int) {
        var head = ""
        var used = 0
        for character in word {
            let w = clusterWidth(character)
            if used + w > width && !head.isEmpty { break }
            head.append(character)
            used += w
        }
        return (head, used)
    }
}
