import SwipeSession

/// Rows laid out as aligned columns for a terminal, streamed: the column
/// widths come from the first `pageSize` rows (the header's names
/// included), which are then printed, and every later row is printed as it
/// comes, each cell cut to its column's width with "…". So the first line
/// appears at once and memory stays flat at any row count.
///
/// Every cell is sanitized (no control characters, line breaks become
/// spaces), widths count terminal columns (`TerminalText.displayWidth`),
/// numbers align right, and a column is at most `maxWidth` wide.
struct TableLayout {
    static let maxWidth = 40
    static let pageSize = 100
    let columns: [String]
    private let pageSize: Int
    /// The first rows, held until the widths are known.
    private var page: [[String]] = []
    /// Whether each column right-aligns (it held only numbers in the first page).
    private(set) var numeric: [Bool]
    /// Set once the header is printed; from then on rows stream.
    private(set) var widths: [Int]?

    init(columns: [String], pageSize: Int = TableLayout.pageSize) {
        self.columns = columns
        self.pageSize = max(1, pageSize)
        self.numeric = Array(repeating: true, count: columns.count)
    }

    /// Prints `cells` (or, within the first page, keeps them to measure).
    mutating func append(_ cells: [Cell], to out: inout some TextOutputStream) {
        var row: [String] = []
        row.reserveCapacity(cells.count)
        for (index, cell) in cells.enumerated() {
            switch cell {
            case .int(let value): row.append(String(value))
            case .real(let value): row.append(Cell.text(real: value))
            case .text(let text):
                row.append(TerminalText.sanitized(text))
                if widths == nil { numeric[index] = false }
            case .list(let items):
                row.append(TerminalText.sanitized(items.joined(separator: "; ")))
                if widths == nil { numeric[index] = false }
            case .null: row.append("")
            }
        }
        if let widths {
            out.write(Self.line(row, widths: widths, numeric: numeric))
            return
        }
        page.append(row)
        if page.count == pageSize { printPage(to: &out) }
    }

    /// Prints what is still held (a table shorter than a page, or none).
    mutating func finish(to out: inout some TextOutputStream) {
        if widths == nil { printPage(to: &out) }
    }

    private mutating func printPage(to out: inout some TextOutputStream) {
        var widths = columns.map(TerminalText.displayWidth)
        for row in page {
            for (index, text) in row.enumerated() {
                widths[index] = max(widths[index], min(Self.maxWidth, TerminalText.displayWidth(text)))
            }
        }
        let header = Array(repeating: false, count: columns.count)
        out.write(Self.line(columns, widths: widths, numeric: header))
        out.write(Self.line(widths.map { String(repeating: "-", count: $0) }, widths: widths, numeric: header))
        for row in page { out.write(Self.line(row, widths: widths, numeric: numeric)) }
        page = []
        self.widths = widths
    }

    private static func line(_ texts: [String], widths: [Int], numeric: [Bool]) -> String {
        var text = ""
        for (index, cell) in texts.enumerated() {
            if index > 0 { text += "  " }
            text += TerminalText.padded(cell, to: widths[index], alignRight: numeric[index])
        }
        while text.utf8.last == 0x20 { text.removeLast() }
        return text + "\n"
    }
}
