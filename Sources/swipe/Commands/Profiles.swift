import ArgumentParser
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe profiles`: every profile (or a city, an age range, a page), in the feed's order.
struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the profiles, in the feed's order.",
        discussion: """
            A table streams: its column widths come from the first rows, and longer cells are cut with "…" \
            (json, jsonl and csv print every value whole).
            Examples:
              swipe profiles --city Lisboa --age 25-35
              swipe profiles --limit 20 --offset 40 --format jsonl
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(help: ArgumentHelp("Only profiles in this city (letters A–Z in any case).", valueName: "CITY"))
    var city: String?
    @Option(help: ArgumentHelp("Only ages in this range, e.g. 25-35 (or one age: 30).", valueName: "MIN-MAX"))
    var age: AgeRange?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many.", valueName: "N")) var limit: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Skip this many first.", valueName: "N")) var offset: Int = 0
    @OptionGroup var output: FormatOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a positive whole number (got \(limit))") }
        if offset < 0 { throw ValidationError("--offset takes a whole number, 0 or more (got \(offset))") }
    }

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let query = ProfileQuery(city: city, ages: age?.range, limit: limit, offset: offset)
            var out = StandardOutput()
            if Terminal.stdoutIsTerminal && output.format != .table {
                // CSV and JSON on a terminal show control characters as escapes (RecordWriter).
                var writer = RecordWriter(
                    format: output.format, columns: StoreRecords.profileColumns, forTerminal: true)
                try store.forEachProfile(query) {
                    writer.write(StoreRecords.cells($0), to: &out)
                    try out.throwIfFailed()
                }
                writer.finish(to: &out)
                return
            }
            // From the stored bytes to the output, a 64 KiB buffer at a time.
            var writer = ProfileRowWriter(format: output.format)
            try store.forEachProfileRow(query) {
                writer.write($0, to: &out)
                try out.throwIfFailed()
            }
            writer.finish(to: &out)
        }
    }
}

/// `--age 25-35` (or `--age 30`): an inclusive range of whole years.
struct AgeRange: ExpressibleByArgument {
    var range: ClosedRange<Int>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts[parts.count - 1]),
            low >= 0, low <= high
        else { return nil }
        range = low...high
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
