import CEditLine
import Foundation
import SwipeCLI
import SwipeCore

/// Feeds standard input to a session, line by line, until `quit` or the end
/// of input. Interactive (a terminal): libedit with prompt, history and
/// completion. Otherwise a script: plain `readLine`, no prompt.
enum ReplLoop {
    /// Returns whether every command succeeded (a script's exit status).
    static func run<Feed, Ledger>(
        _ session: inout ReplSession<Feed, Ledger>, editor: LineEditor?
    ) -> Bool {
        var output = StandardOutput()
        var allSucceeded = true
        while !session.isFinished {
            let line: String
            if let editor {
                editor.prompt = ReplPrompt.text(for: session.snapshot.mode)
                let current = session
                editor.redraw = { current.deckLines(width: Terminal.columns ?? DeckPicture.width) }
                let reading = editor.read()
                // The picture fits the terminal as it is now (after any resize).
                session.layout.width = Terminal.columns ?? DeckPicture.width
                switch reading {
                case .key(let key):
                    play(key, in: &session)
                    continue
                case .line(let text): line = text
                case .interrupted: continue
                case .end:
                    // Ctrl-D leaves the cursor after the prompt: end its line,
                    // so the shell's prompt starts on a new one.
                    print()
                    return allSucceeded
                }
            } else {
                guard let text = readLine(strippingNewline: true) else { return allSucceeded }
                line = text
            }
            if !session.run(line, into: &output) { allSucceeded = false }
            fflush(swipe_stdout())
        }
        return allSucceeded
    }

    /// Runs a one-key gesture's commands. The drag frames are drawn in
    /// place, each over the one before (cursor up, clear below), a few
    /// hundredths of a second apart so the eye sees the card move; then the
    /// release's answer replaces the last frame.
    private static func play<Feed, Ledger>(_ key: ReplKey, in session: inout ReplSession<Feed, Ledger>) {
        var output = StandardOutput()
        var linesOnScreen = 0
        for command in key.commands(in: session.snapshot.mode) {
            var answer = ""
            let succeeded = session.run(command, into: &answer)
            if linesOnScreen > 0 { output.write("\u{1B}[\(linesOnScreen)A\r\u{1B}[J") }
            output.write(answer)
            fflush(swipe_stdout())
            guard succeeded else { return }
            if command.hasPrefix("drag ") {
                linesOnScreen = answer.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
                usleep(40_000)  // one frame of the animation, not a wait for anything
            } else {
                linesOnScreen = 0
            }
        }
    }
}
