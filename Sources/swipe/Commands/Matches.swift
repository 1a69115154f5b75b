import ArgumentParser
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe matches`: the viewer's matches, or with --missed the likes they passed on.
struct Matches: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the viewer's matches, newest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Flag(help: "List missed matches instead: people the viewer hated who like them.") var missed = false
    @OptionGroup var range: TimeRangeOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let id = try viewer.resolve(in: store)
            if missed {
                try output.write(
                    columns: StoreRecords.missedColumns,
                    rows: try store.missedMatches(viewer: id).filter { range.contains($0.passedAt) },
                    cells: StoreRecords.cells)
            } else {
                try output.write(
                    columns: StoreRecords.matchColumns,
                    rows: try store.matches(viewer: id).filter { range.contains($0.matchedAt) },
                    cells: StoreRecords.cells)
            }
        }
    }
}
