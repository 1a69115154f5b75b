import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe export --as V [FILE]`: everything the store holds about the
/// viewer, as one versioned JSON document (Documentation/PersonalData.md).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write everything the store holds about the viewer as one JSON document.",
        discussion: """
            To standard output, or to FILE: written beside it first and renamed into
            place, so FILE is either the old one or the whole new document (mode 0600).
            Example: swipe export --as m-1 m-1.json
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("Where to write it (default: standard output).", valueName: "FILE")) var file: String?

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            let document = try store.exportPersonalData(viewer: id, at: nil).json
            if let file {
                try AtomicFile.write(document, to: file)
                var stderr = StandardError()
                stderr.write("swipe: wrote \(TerminalText.oneLine(id))'s data to \(TerminalText.oneLine(file))\n")
            } else {
                var out = StandardOutput()
                out.write(document)
            }
        }
    }
}
