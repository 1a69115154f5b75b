/// A grid of terminal cells that pictures are drawn into back to front: what
/// is drawn later covers what was there. Each cell is one column; a wide
/// character takes its cell and blanks the next. Drawing outside is clipped.
struct TextCanvas {
    let width: Int
    let height: Int
    private var cells: [[Cell]]

    struct Cell: Hashable {
        /// "" for the second column of a wide character.
        var text: String
        var tone: ReplStyle.Tone
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Array(repeating: Cell(text: " ", tone: .plain), count: width), count: height)
    }

    /// Writes `text` starting at (`row`, `column`), one cell per column.
    mutating func put(_ text: String, row: Int, column: Int, tone: ReplStyle.Tone = .plain) {
        guard (0..<height).contains(row) else { return }
        var column = column
        for character in text {
            let w = TerminalText.clusterWidth(character)
            guard w > 0 else { continue }
            if column >= 0, column + w <= width {
                breakWideCharacter(row: row, column: column)
                breakWideCharacter(row: row, column: column + w - 1)
                cells[row][column] = Cell(text: String(character), tone: tone)
                if w == 2 { cells[row][column + 1] = Cell(text: "", tone: tone) }
            }
            column += w
        }
    }

    /// Before (`row`, `column`) is overwritten: if it holds half of a wide
    /// character, the other half becomes a space so columns stay aligned.
    private mutating func breakWideCharacter(row: Int, column: Int) {
        if cells[row][column].text.isEmpty, column > 0 {
            cells[row][column - 1].text = " "
        } else if column + 1 < width, cells[row][column + 1].text.isEmpty {
            cells[row][column + 1].text = " "
        }
    }

    /// Fills `count` cells with spaces (covers what is behind).
    mutating func clear(row: Int, column: Int, count: Int) {
        put(String(repeating: " ", count: max(0, count)), row: row, column: column)
    }

    /// The rows as text, trailing spaces removed, styled runs painted.
    func lines(style: ReplStyle) -> [String] {
        cells.map { row in
            var line = ""
            var run = ""
            var tone = ReplStyle.Tone.plain
            for cell in row {
                if cell.tone != tone {
                    line += style.paint(run, tone)
                    run = ""
                    tone = cell.tone
                }
                run += cell.text
            }
            line += style.paint(run, tone)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
