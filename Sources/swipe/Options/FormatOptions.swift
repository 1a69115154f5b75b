import ArgumentParser
import SwipeCLI
import SwipeCommandLine
import SwipeSession

// Parsed straight from its raw value; only `swipe` prints rows.
extension OutputFormat: ExpressibleByArgument {}

/// `--format table|json|jsonl|csv` for the query commands.
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: table, json (one array), jsonl (one object per line) or csv.")
    var format: OutputFormat = .table

    /// Writes `rows` as `columns` to standard output in the chosen format.
    func write<Rows: Sequence>(columns: [String], rows: Rows, cells: (Rows.Element) -> [Cell]) throws {
        var out = StandardOutput()
        var writer = RecordWriter(format: format, columns: columns, forTerminal: Terminal.stdoutIsTerminal)
        for row in rows {
            writer.write(cells(row), to: &out)
            try out.throwIfFailed()
        }
        writer.finish(to: &out)
    }
}
