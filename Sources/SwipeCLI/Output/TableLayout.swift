
/// Rows laid out as aligned columns for a terminal. Every cell is sanitized
/// (no control characters, line breaks become spaces), widths count terminal
/// columns (CJK and emoji are two), numbers align right, and a column is at
/// most `maxWidth` wide, cut with "…".
struct TableLayout {
    static let maxWidth = 40
    let columns: [String]
    private var rows: [[String]] = []
    private var numeric: [Bool]

    init(columns: [String]) {
        self.columns = columns
        self.numeric = Array(repeating: true, count: columns.count)
    }

    mutating func append(_ cells: [Cell]) {
        var row: [String] = []
        for (index, cell) in cells.enumerated() {
            switch cell {
            case .int(let value): row.append(String(value))
            case .real(let value): row.append(Cell.text(real: value))
            case .text(let text):
                row.append(TerminalText.sanitized(text))
                numeric[index] = false
            case .list(let items):
                row.append(TerminalText.sanitized(items.joined(separator: "; ")))
                numeric[index] = false
            case .null: row.append("")
            }
        }
        rows.append(row)
    }

    func render(to out: inout some TextOutputStream) {
        var widths = columns.map(TerminalText.displayWidth)
        for row in rows {
            for (index, text) in row.enumerated() {
                widths[index] = max(widths[index], min(Self.maxWidth, TerminalText.displayWidth(text)))
            }
        }
        func line(_ texts: [String], alignNumbers: Bool) -> String {
            let padded = texts.enumerated().map { index, text in
                TerminalText.padded(text, to: widths[index], alignRight: alignNumbers && numeric[index])
            }
            var text = padded.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        out.write(line(columns, alignNumbers: false))
        out.write(line(widths.map { String(repeating: "-", count: $0) }, alignNumbers: false))
        for row in rows { out.write(line(row, alignNumbers: true)) }
    }
}
