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
                switch editor.read() {
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
}
