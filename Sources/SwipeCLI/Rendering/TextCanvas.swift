import SwipeSession

/// A grid of terminal cells that pictures are drawn into back to front: what
/// is drawn later covers what was there. Each cell is one column; a cluster
/// wider than one column takes its cell and blanks the next ones. Drawing
/// outside is clipped.
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
                breakCluster(row: row, column: column)
                breakCluster(row: row, column: column + w - 1)
                cells[row][column] = Cell(text: String(character), tone: tone)
                for extra in 1..<max(w, 1) { cells[row][column + extra] = Cell(text: "", tone: tone) }
            }
            column += w
        }
    }

    /// Before (`row`, `column`) is overwritten: if it is part of a cluster
    /// wider than one column (a wide character, or "र्मा" taking three),
    /// the whole cluster becomes spaces so the columns stay aligned.
    private mutating func breakCluster(row: Int, column: Int) {
        var head = column
        while head > 0, cells[row][head].text.isEmpty { head -= 1 }
        var end = head + 1
        while end < width, cells[row][end].text.isEmpty { end += 1 }
        guard end - head > 1 else { return }
        for index in head..<end { cells[row][index].text = " " }
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
