import ArgumentParser
import SwipeCLI
import SwipeCSV
import SwipeCommandLine
import SwipeCore
import SwipeSession
import SwipeStore

/// `swipe profile ID`: one profile as the REPL's detail page shows it, or
/// as data (`--format json|jsonl|csv`, keyed as `swipe profiles`).
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show one profile, as its detail page.",
        discussion: "Example: swipe profile p-001 --format json")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: ArgumentHelp("The profile's id (see swipe profiles).", valueName: "PROFILE_ID")) var id: String
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            guard let profile = try store.profile(id: id) else { throw NoSuchProfile(id: id) }
            var out = StandardOutput()
            switch output.format {
            case .table:
                var view = DetailView(profile, style: ReplStyle(color: Terminal.stdoutWantsColor))
                view.showsActions = false
                for line in view.lines { out.write(line + "\n") }
            case .json, .jsonl:
                // One profile: one object, not an array.
                var writer = RecordWriter(
                    format: .jsonl, columns: StoreRecords.profileColumns, forTerminal: Terminal.stdoutIsTerminal)
                writer.write(StoreRecords.cells(profile), to: &out)
            case .csv:
                var writer = RecordWriter(
                    format: .csv, columns: StoreRecords.profileColumns, forTerminal: Terminal.stdoutIsTerminal)
                writer.write(StoreRecords.cells(profile), to: &out)
                writer.finish(to: &out)
            }
        }
    }
}

/// No profile has this id (exit 64: the argument is wrong).
struct NoSuchProfile: ExitCoded, CustomStringConvertible {
    var id: String
    var exitStatus: Int32 { ExitStatus.usage }
    var description: String { "no such profile: \"\(id)\" (swipe profiles lists them)" }
}
