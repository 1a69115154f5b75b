import CEditLine
import Foundation
import SwipeCLI
import SwipeCore

/// Feeds standard input to a session, line by line, until `quit` or the end
/// of input. Interactive (a terminal): libedit with prompt, history and
/// completion. Otherwise a script: plain `readLine`, no prompt.
enum ReplLoop {
    /// Returns whether every command succeeded (a script's exit status).
    /// Each answer is written out before the next line is read; the first
    /// answer that cannot be written stops the session (`ReplOutputFailure`),
    /// so at most one command's decision goes unacknowledged.
    static func run<Feed, Ledger>(
        _ session: inout ReplSession<Feed, Ledger>, editor: LineEditor?
    ) throws -> Bool {
        var output = StandardOutput()
        var allSucceeded = true
        reading: while !session.isFinished {
            do {
                try output.flush()
            } catch let failure as OutputFailure {
                throw ReplOutputFailure(failure: failure)
            }
            let line: String
            if let editor {
                switch editor.read() {
                case .line(let text): line = text
                case .interrupted: continue
                case .end: break reading
                }
            } else {
                guard let text = readLine(strippingNewline: true) else { break reading }
                line = text
            }
            if !session.run(line, into: &output) { allSucceeded = false }
        }
        do {
            try output.flush()
        } catch let failure as OutputFailure {
            throw ReplOutputFailure(failure: failure)
        }
        return allSucceeded
    }
}

/// The REPL stopped because an answer could not be written (exit 74).
struct ReplOutputFailure: Error, CustomStringConvertible {
    var failure: OutputFailure

    var description: String {
        "stopped: cannot write the answer to standard output: \(String(cString: strerror(failure.code))). "
            + "The last command read was carried out (a decision it made is stored), but its answer was not "
            + "shown, and no further line was read"
    }
}
