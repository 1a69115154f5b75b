import ArgumentParser
import SwipeCLI
import SwipeStore

/// `swipe profiles`: every profile, in the feed's order.
struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every profile.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            var out = StandardOutput()
            var writer = RecordWriter(
                format: output.format, columns: StoreRecords.profileColumns, forTerminal: Terminal.stdoutIsTerminal)
            try store.forEachProfile {
                writer.write(StoreRecords.cells($0), to: &out)
                try out.throwIfFailed()
            }
            writer.finish(to: &out)
        }
    }
}
