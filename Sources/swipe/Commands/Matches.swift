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
    @Flag(help: "Add each match's message count and last message time (columns messages, last_message_at).")
    var withMessages = false
    @OptionGroup var range: TimeRangeOptions
    @OptionGroup var output: FormatOptions

    func validate() throws {
        if missed && withMessages {
            throw ValidationError("--with-messages lists matches, and --missed lists people passed on: give one")
        }
    }

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let id = try viewer.resolve(in: store)
            if missed {
                try output.write(
                    columns: StoreRecords.missedColumns,
                    rows: try store.missedMatches(viewer: id).filter { range.contains($0.passedAt) },
                    cells: StoreRecords.cells)
            } else if withMessages {
                try output.write(
                    columns: Self.activityColumns,
                    rows: try store.matchActivity(viewer: id).filter { range.contains($0.matchedAt) },
                    cells: Self.cells)
            } else {
                try output.write(
                    columns: StoreRecords.matchColumns,
                    rows: try store.matches(viewer: id).filter { range.contains($0.matchedAt) },
                    cells: StoreRecords.cells)
            }
        }
    }
}

extension Matches {
    /// `--with-messages`: the columns of `matches`, then the conversation's.
    static let activityColumns = StoreRecords.matchColumns + ["messages", "last_message_at"]

    static func cells(_ match: MatchActivity) -> [Cell] {
        StoreRecords.cells(Match(profile: match.profile, name: match.name, matchedAt: match.matchedAt)) + [
            .int(match.messages), .optional(match.lastMessageAt),
        ]
    }
}
