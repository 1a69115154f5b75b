import ArgumentParser
import SwipeCLI
import SwipeCSV
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe stats`: counts over the whole database, or with `--as` one viewer's.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count profiles, decisions and matches (or, with --as, one viewer's).",
        discussion: """
            --as here names the profile to count for, and only when given: stats never defaults to the \
            remembered viewer, and reading them never changes it.
            Examples:
              swipe stats --format json
              swipe stats --as p-001
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Count this profile's decisions, likes received and matches.", valueName: "PROFILE_ID"))
    var viewer: String?
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let counts: [(String, Int)]
            var viewerCell: [(String, Cell)] = []
            if let viewer {
                guard try store.isProfile(viewer) else { throw ViewerError.notAProfile(viewer) }
                let stats = try store.stats(viewer: viewer)
                viewerCell = [("viewer", .text(viewer))]
                counts = [
                    ("decided", stats.decided), ("likes_given", stats.likesGiven),
                    ("superlikes_given", stats.superlikesGiven), ("hates_given", stats.hatesGiven),
                    ("likes_received", stats.likesReceived), ("superlikes_received", stats.superlikesReceived),
                    ("matches", stats.matches), ("undone", stats.undone),
                ]
            } else {
                let stats = try store.stats()
                counts = [
                    ("profiles", stats.profiles), ("viewers", stats.viewers), ("decisions", stats.decisions),
                    ("undone", stats.undone), ("likes", stats.likes), ("superlikes", stats.superlikes),
                    ("hates", stats.hates), ("matches", stats.matches), ("missed_matches", stats.missedMatches),
                ]
            }
            let fields = viewerCell + counts.map { ($0.0, Cell.int($0.1)) }
            var out = StandardOutput()
            switch output.format {
            case .table:
                // One name and value a line: a person reads down, not across.
                let width = fields.map { $0.0.count }.max()! + 1
                for (name, cell) in fields {
                    let value =
                        switch cell {
                        case .int(let number): String(number)
                        case .text(let text): TerminalText.oneLine(text)
                        default: ""
                        }
                    out.write(
                        TerminalText.padded(name.replacingOccurrences(of: "_", with: " "), to: width) + value + "\n")
                }
            case .json, .jsonl, .csv:
                // One record: JSON as one object (not an array of one), CSV as a header and a row.
                var writer = RecordWriter(
                    format: output.format == .csv ? .csv : .jsonl, columns: fields.map(\.0),
                    forTerminal: Terminal.stdoutIsTerminal)
                writer.write(fields.map(\.1), to: &out)
                writer.finish(to: &out)
            }
        }
    }
}
