import CEditLine
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeCore
import SwipeSession

/// Lines of standard input as bytes (`readLine` would repair what is not
/// UTF-8 into U+FFFD before anyone could refuse it), without the newline
/// (and a carriage return before it).
enum StandardInputLines {
    static func next() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, swipe_stdin())
        guard count >= 0, let buffer else { return nil }
        let start = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        var bytes = [UInt8](UnsafeBufferPointer(start: start, count: count))
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes
    }
}

/// Feeds standard input to a session, line by line, until `quit` or the end
/// of input. Interactive (a terminal): libedit with prompt, history and
/// completion. Otherwise a script: plain `readLine`, no prompt.
enum ReplLoop {
    /// Returns whether every command succeeded (a script's exit status).
    /// Each answer is written out before the next line is read; the first
    /// answer that cannot be written stops the session (`ReplOutputFailure`),
    /// so at most one command's decision goes unacknowledged.
    static func run(
        _ session: inout ReplSession, editor: LineEditor?
    ) throws -> Bool {
        var output = StandardOutput()
        var allSucceeded = true
        reading: while !session.isFinished {
            do {
                try output.flush()
            } catch let failure as OutputFailure {
                throw ReplOutputFailure(failure: failure)
            }
            let line: ReplLine
            if let editor {
                editor.prompt = session.prompt
                editor.gesturesOn = session.chat == nil
                editor.inChat = session.chat != nil
                let current = session
                editor.redraw = { current.deckLines(width: Terminal.columns ?? DeckPicture.width) }
                // What happened elsewhere (a message, a match) while the last
                // command ran, then while the person types nothing.
                for text in news(&session) { output.write(text + "\n") }
                let listening = Listening(session)
                editor.idle = { news(&listening.session) }
                let reading = editor.read()
                editor.idle = nil
                session = listening.session
                // The picture fits the terminal as it is now (after any resize).
                session.layout.width = Terminal.columns ?? DeckPicture.width
                switch reading {
                case .key(let key):
                    // In a chat the keys would be typed as messages: only the deck plays them.
                    if session.chat == nil { play(key, in: &session) }
                    continue
                case .line(let text): line = ReplLine(text)
                case .interrupted:
                    // Ctrl-C drops the line; during a drag it also lifts the
                    // finger without deciding (cancel), as a person expects.
                    if session.snapshot.dragging != nil { _ = session.run("cancel", into: &output) }
                    continue
                case .end:
                    // Ctrl-D leaves the cursor after the prompt: end its line,
                    // so the shell's prompt starts on a new one.
                    output.write("\n")
                    break reading
                }
            } else {
                guard let bytes = StandardInputLines.next() else { break reading }
                line = ReplLine(bytes: bytes)
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

    /// The session while libedit reads a line: its idle callback listens.
    private final class Listening {
        var session: ReplSession
        init(_ session: ReplSession) { self.session = session }
    }

    /// What the session hears, as the lines printed above the prompt.
    private static func news(_ session: inout ReplSession) -> [String] {
        guard case .text(let style) = session.format else { return [] }
        let viewer = session.ledger.viewer
        return session.listen().map { $0.textLine(viewer: viewer, style: style) }
    }

    /// Runs a one-key gesture's commands. The drag frames are drawn in
    /// place, each over the one before (cursor up, clear below), a few
    /// hundredths of a second apart so the eye sees the card move; then the
    /// release's answer replaces the last frame.
    private static func play(_ key: ReplKey, in session: inout ReplSession) {
        var output = StandardOutput()
        var linesOnScreen = 0
        for command in key.commands(in: session.snapshot.mode) {
            var answer = ""
            let succeeded = session.run(command, into: &answer)
            if linesOnScreen > 0 { output.write("\u{1B}[\(linesOnScreen)A\r\u{1B}[J") }
            output.write(answer)
            try? output.flush()  // each frame on screen now (a failed write stops the loop at its next flush)
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

/// The REPL stopped because an answer could not be written (exit 74).
struct ReplOutputFailure: ExitCoded, CustomStringConvertible {
    var failure: OutputFailure
    var exitStatus: Int32 { ExitStatus.ioError }

    var description: String {
        "stopped: cannot write the answer to standard output: \(String(cString: strerror(failure.code))). "
            + "The last command read was carried out (a decision it made is stored), but its answer was not "
            + "shown, and no further line was read"
    }
}
