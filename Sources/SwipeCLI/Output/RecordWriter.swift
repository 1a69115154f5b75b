import SwipeSession
import SwipeStore

/// Writes rows of named cells in one `OutputFormat`, streaming: JSON, JSONL
/// and CSV print each row as it comes; a table holds only its first page of
/// rows to measure the columns, then streams too (`TableLayout`).
///
/// ```
/// var writer = RecordWriter(format: .json, columns: ["id", "name"])
/// writer.write([.text("p-1"), .text("Ana")], to: &out)
/// writer.finish(to: &out)
/// ```
public struct RecordWriter {
    public let format: OutputFormat
    public let columns: [String]
    /// The output is a terminal: CSV and JSON show control characters as
    /// visible escapes (`TerminalText.escaped`), so profile text cannot
    /// drive the terminal. To a file or a pipe they stay byte-exact data.
    public let forTerminal: Bool
    private var rowsWritten = 0
    private var table: TableLayout

    public init(format: OutputFormat, columns: [String], forTerminal: Bool = false) {
        self.format = format
        self.columns = columns
        self.forTerminal = forTerminal
        self.table = TableLayout(columns: columns)
    }

    /// Writes (or, for a table, keeps) one row; `cells` line up with `columns`.
    public mutating func write(_ cells: [Cell], to out: inout some TextOutputStream) {
        precondition(cells.count == columns.count, "a row must have one cell per column")
        defer { rowsWritten += 1 }
        switch format {
        case .table:
            table.append(cells, to: &out)
        case .json:
            out.write(rowsWritten == 0 ? "[\n" : ",\n")
            out.write(jsonObject(cells))
        case .jsonl:
            out.write(jsonObject(cells) + "\n")
        case .csv:
            if rowsWritten == 0 { out.write(CSVText.line(columns)) }
            out.write(
                CSVText.line(cells.map { forTerminal ? TerminalText.escaped(Self.csvField($0)) : Self.csvField($0) }))
        }
    }

    /// Ends the output: closes the JSON array, prints the table, or prints
    /// the CSV header when there were no rows.
    public mutating func finish(to out: inout some TextOutputStream) {
        switch format {
        case .table: table.finish(to: &out)
        case .json: out.write(rowsWritten == 0 ? "[]\n" : "\n]\n")
        case .jsonl: break
        case .csv: if rowsWritten == 0 { out.write(CSVText.line(columns)) }
        }
    }

    private func jsonObject(_ cells: [Cell]) -> String {
        let members = zip(columns, cells).map { name, cell in
            JSONText.quoted(name) + ":" + Self.json(cell)
        }
        let object = "{" + members.joined(separator: ",") + "}"
        // JSONText escapes C0 and C1 already; on a terminal the bidi
        // controls become \u escapes too (still the same JSON data).
        return forTerminal ? TerminalText.escapingControlsInJSON(object) : object
    }

    private static func json(_ cell: Cell) -> String {
        switch cell {
        case .text(let text): JSONText.quoted(text)
        case .int(let value): String(value)
        case .real(let value): value.isFinite ? Cell.text(real: value) : "null"
        case .list(let items): JSONText.array(items)
        case .null: "null"
        }
    }

    private static func csvField(_ cell: Cell) -> String {
        switch cell {
        case .text(let text): text
        case .int(let value): String(value)
        case .real(let value): Cell.text(real: value)
        case .list(let items): items.joined(separator: ";")
        case .null: ""
        }
    }
}
