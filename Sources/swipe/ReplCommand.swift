import ArgumentParser
import CEditLine
import Foundation
import SwipeCLI
import SwipeCSV
import SwipeCommandLine
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore

extension PhysicsKind: ExpressibleByArgument {}

/// `swipe repl` (and bare `swipe`): drive the deck by typing what a finger
/// would do. On a terminal: libedit, the deck drawn after each command.
/// Otherwise a script: no prompt, exit status 1 if any command failed.
/// With `--json`: one JSON object per input line (README, "JSON mode").
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "Drive the deck by typing gestures (type help inside).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Option(help: "Physics preset: tantan, draggable, stack or scrub.") var physics: PhysicsKind = .tantan
    @Flag(help: "Answer each input line with one JSON object on one line.") var json = false
    @Flag(help: "Draw the deck after each command even when standard input is not a terminal (a script).")
    var picture = false

    func run() throws {
        var allSucceeded = true
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let interactive = isatty(STDIN_FILENO) == 1 && !json
            let viewerID = try resolveViewer(in: store, mayAsk: isatty(STDIN_FILENO) == 1)
            // Only a REPL session, where a person acts as someone, makes its
            // viewer the database's default (README, "Viewer"); reads never do.
            try store.setLastViewer(viewerID)
            // The ranking's model, refitted when stale (never fitted, or
            // `Ranking.refitEvery` decisions since): one bounded batch, on a
            // connection and a thread of its own while the person swipes.
            let refit = try BackgroundRefit.startIfStale(store) { try database.openExisting() }
            defer {
                if let failed = refit?.wait() {
                    var stderr = StandardError()
                    stderr.write(TerminalText.oneLine(failed) + "\n")
                }
            }
            let ledger = ViewerScope(store: store, viewer: viewerID)
            let environment = ProcessInfo.processInfo.environment
            let color = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
            var session = try ReplSession(
                feed: try store.feed(viewer: viewerID), physics: physics, ledger: ledger,
                format: json ? .json : .text(ReplStyle(color: color)))
            // A person at a terminal sees the deck, as wide as the terminal; a
            // script's output is its outcome lines unless --picture asks for more.
            session.layout = ReplLayout(width: Terminal.columns ?? DeckPicture.width, pictures: interactive || picture)
            var editor: LineEditor?
            let who =
                TerminalText.oneLine(try store.profile(id: viewerID)?.name ?? viewerID)
                + " (" + TerminalText.oneLine(viewerID) + ")"
            var output = StandardOutput()
            OutputChannel.standard.escapesJSONControls = json && isatty(STDOUT_FILENO) == 1
            if interactive {
                let banner =
                    "swipe: swiping as \(who), physics \(physics.rawValue). "
                    + "Type help for the commands; Ctrl-D or quit ends."
                for line in TerminalText.wrapped(banner, width: session.layout.width) { output.write(line + "\n") }
                for line in session.standingLines() { output.write(line + "\n") }
                session.run("deck", into: &output)
                editor = LineEditor(prompt: "swipe> ", historyFile: HistoryFile.prepared(), gestureKeys: true) { line in
                    ReplCompletion(
                        lineBeforeCursor: line,
                        profileIDs: (try? store.decidedProfileIDs(viewer: viewerID)) ?? [],
                        matches: (try? store.matches(viewer: viewerID).map { ($0.profile, $0.name) }) ?? [],
                        likers: (try? store.likes(viewer: viewerID).map { ($0.profile, $0.name) }) ?? [])
                }
            } else {
                // A script's stdout is its answers; who it acts as goes to stderr.
                var stderr = StandardError()
                stderr.write("swipe: swiping as \(who)\n")
                for line in session.standingLines() { stderr.write("swipe: " + line + "\n") }
            }
            allSucceeded = try ReplLoop.run(&session, editor: editor)
        }
        if !allSucceeded && isatty(STDIN_FILENO) != 1 { throw ExitCode.failure }
    }

    /// `--as`, `$SWIPE_AS` or the remembered viewer; with none known and a
    /// person at the terminal, asks for a profile id.
    private func resolveViewer(in store: any SwipeDatabase, mayAsk: Bool) throws -> String {
        do {
            return try viewer.resolve(in: store, announce: false)
        } catch ViewerError.noneChosen where mayAsk {
            return try askForViewer(in: store)
        }
    }

    /// The first-run question: which profile is swiping. A wrong id asks
    /// again (Tab completes ids); Ctrl-D gives up with the usual error.
    private func askForViewer(in store: any SwipeDatabase) throws -> String {
        var output = StandardOutput()
        output.write(
            "Who is swiping? Type your profile id (Tab completes it, Ctrl-D gives up; swipe profiles lists them).\n")
        try output.flush()
        let editor = LineEditor(prompt: "profile id> ", historyFile: nil) { line in
            ReplCompletion(prefix: line, candidates: (try? store.profileIDs(startingWith: line, limit: 200)) ?? [])
        }
        while true {
            switch editor.read() {
            case .end:
                output.write("\n")
                try output.flush()
                throw ViewerError.noneChosen
            case .interrupted, .key:
                continue
            case .line(let text):
                let id = text.trimmingCharacters(in: .whitespaces)
                if id.isEmpty { continue }
                do {
                    return try store.resolveViewer(id)
                } catch ViewerError.notAProfile {
                    output.write("no profile has id \"\(TerminalText.oneLine(id))\"; try again (Tab completes ids)\n")
                    try output.flush()
                }
            }
        }
    }
}
