import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeCore
import SwipeSession
import SwipeStore

/// `swipe history`: the viewer's decisions, newest first, undone ones included.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the viewer's decisions, newest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Option(help: "Only this decision: like, hate (or nope, its other name) or superlike.") var decision: Decision?
    @OptionGroup var range: TimeRangeOptions
    // Unconditional: `--limit -1` is read as a value (and refused by
    // `validate`), not as a missing value followed by an option `-1`.
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many.", valueName: "N")) var limit: Int?
    @OptionGroup var output: FormatOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a positive whole number (got \(limit))") }
    }

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let query = HistoryQuery(
                viewer: try viewer.resolve(in: store), decision: decision,
                since: range.sinceStamp, limit: limit, until: range.untilStamp)
            try output.write(
                columns: StoreRecords.historyColumns, rows: try store.history(query), cells: StoreRecords.cells)
        }
    }
}
