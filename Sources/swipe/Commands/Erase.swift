import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe erase --as V`: the viewer and every row naming them, in one
/// transaction (Documentation/PersonalData.md, "Erase").
struct Erase: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Erase the viewer and everything the store holds about them, for good.",
        discussion: """
            Asks first on a terminal (type the id to confirm); scripts pass --yes. Without a
            terminal and without --yes, refuses and changes nothing (exit 64). Reports about
            the viewer keep their reason under a tombstone id for moderators.
            Example: swipe erase --as m-1 --yes
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Flag(help: "Erase without asking (for scripts).") var yes = false

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            // Only an id given now is erased: never the database's last viewer.
            guard
                let requested = ViewerOptions.requested(
                    option: viewer.id, environment: ProcessInfo.processInfo.environment)
            else { throw ViewerError.noneChosen }
            let id = try store.resolveViewer(requested)
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else { throw EraseRefused.notConfirmed(id) }
                var stderr = StandardError()
                let name = try store.profile(id: id)?.name ?? id
                stderr.write(
                    "Erase \(TerminalText.oneLine(name)) (\(TerminalText.oneLine(id))): the profile, decisions, matches, "
                        + "messages, blocks and reports, for good? Type the id to confirm: ")
                guard let answer = readLine(), answer.trimmingCharacters(in: .whitespaces) == id else {
                    throw EraseRefused.declined(id)
                }
            }
            let erasure = try store.erase(viewer: id, at: nil)
            var out = StandardOutput()
            var line = "erased \(TerminalText.oneLine(id)): \(erasure.rowsRemoved) rows"
            if !erasure.unmatched.isEmpty {
                line += "; matches ended: " + erasure.unmatched.map { TerminalText.oneLine($0) }.joined(separator: ", ")
            }
            if let tombstone = erasure.tombstone { line += "; reports about them kept as \(tombstone)" }
            out.write(line + "\n")
        }
    }
}

/// Erase not confirmed: nothing was changed (exit 64).
enum EraseRefused: ExitCoded, CustomStringConvertible {
    case notConfirmed(String)
    case declined(String)

    var exitStatus: Int32 { ExitStatus.usage }

    var description: String {
        switch self {
        case .notConfirmed(let id):
            "erase asks before erasing \"\(id)\", and standard input is not a terminal; "
                + "pass --yes to erase without asking. Nothing was changed"
        case .declined(let id):
            "the answer was not \"\(id)\"; nothing was erased"
        }
    }
}
