import CEditLine
import Foundation
import SwipeCLI
import SwipeSession

/// The interactive line reader: libedit with emacs keys, a prompt, history
/// kept in a file across sessions, and Tab completion.
///
/// Ctrl-C cancels the line being typed and keeps the session: a no-op SIGINT
/// handler (installed without SA_RESTART) makes libedit's read fail with
/// EINTR, `el_gets` returns with a count of -1, and the line is discarded.
final class LineEditor {
    enum Reading: Equatable {
        case line(String)
        /// Ctrl-C: the line was discarded.
        case interrupted
        /// Ctrl-D on an empty line, or input closed.
        case end
        /// A one-key gesture on an empty line.
        case key(ReplKey)
    }

    /// The key sequences of each one-key gesture: normal and application
    /// cursor mode for the arrows, two spellings of Shift-↑ and Alt-↑.
    static let keySequences: [(ReplKey, [String])] = [
        (.left, ["\\e[D", "\\eOD"]), (.right, ["\\e[C", "\\eOC"]),
        (.up, ["\\e[1;2A", "\\e[1;3A", "\\e\\e[A"]), (.space, [" "]), (.backspace, ["^?", "^H"]),
    ]
    /// Set by a gesture key on an empty line, which ends the line; `read` returns it.
    private var pendingKey: ReplKey?
    /// Whether a gesture key on an empty line plays its gesture; off in a
    /// chat, where every key is typing (a space, a backspace, the arrows).
    var gesturesOn = true
    /// Whether a chat is open: Tab then completes the chat's `/` commands
    /// (`ReplCompletion(chatLine:)`), not the deck's.
    var inChat = false
    /// Called when the terminal was resized while a line is being read:
    /// what to print above the prompt (the deck at the new width).
    var redraw: (() -> [String])?
    /// Called every `listenInterval` while the person types nothing: what
    /// to print above the prompt (a message or match made elsewhere), after
    /// which the prompt and the line typed so far are drawn again.
    var idle: (() -> [String])?
    static let listenInterval: Int32 = 500  // milliseconds

    /// Set by SIGWINCH; the read function answers it.
    nonisolated(unsafe) static var resized: sig_atomic_t = 0
    /// Set by SIGINT (Ctrl-C): the read fails, and the line is dropped.
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    /// The names of the functions added to libedit (freed after `el_end`).
    private var functionNames: [UnsafeMutablePointer<CChar>] = []

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyFile: String?
    private var promptText: UnsafeMutablePointer<CChar>
    /// The prompt shown before each line (`swipe> `, `swipe[detail]> `).
    var prompt: String {
        didSet {
            free(promptText)
            promptText = strdup(prompt)
        }
    }
    /// Completes the text left of the cursor.
    private let complete: (String) -> ReplCompletion

    /// With `gestureKeys`, the one-key gestures are bound (the REPL's prompt).
    init(
        prompt: String, historyFile: String?, gestureKeys: Bool = false,
        complete: @escaping (String) -> ReplCompletion
    ) {
        swipe_el_adopt_locale()
        Self.keepProcessOnInterrupt()
        self.prompt = prompt
        self.promptText = strdup(prompt)
        self.historyFile = historyFile
        self.complete = complete
        history = history_init()
        swipe_history_set_size(history, 1000)
        swipe_history_set_unique(history, 1)
        if let historyFile { swipe_history_load(history, historyFile) }
        editLine = el_init(CommandLine.arguments.first ?? "swipe", swipe_stdin(), swipe_stdout(), swipe_stderr())
        swipe_el_set_editor(editLine, "emacs")
        swipe_el_set_signal(editLine, 1)
        swipe_el_set_history(editLine, history)
        swipe_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        swipe_el_set_prompt(editLine) { editLine in
            LineEditor.owner(of: editLine)?.promptText
        }
        swipe_el_add_function(editLine, "swipe-complete", "complete a command, physics name or profile id") {
            editLine, _ in
            guard let editLine, let owner = LineEditor.owner(of: editLine) else { return UInt8(CC_ERROR) }
            return owner.completeLine(editLine)
        }
        swipe_el_bind(editLine, "^I", "swipe-complete")
        if gestureKeys { bindGestureKeys() }
        // Our own character reader, so a resize can be answered while a line
        // is read: SIGWINCH interrupts the read, the deck is drawn again at
        // the new width, and ^] (bound to ed-redisplay) redraws the prompt
        // and the line typed so far.
        Self.noticeResizes()
        swipe_el_bind(editLine, "^]", "ed-redisplay")
        swipe_el_set_getcfn(editLine) { editLine, character in
            guard let editLine, let character, let owner = LineEditor.owner(of: editLine) else { return -1 }
            return owner.readCharacter(into: character)
        }
    }

    /// On an empty line each gesture key ends the line as that gesture;
    /// elsewhere it edits as usual (← → move, Space inserts, Backspace deletes).
    private func bindGestureKeys() {
        typealias Handler = @convention(c) (OpaquePointer?, Int32) -> UInt8
        let handlers: [ReplKey: Handler] = [
            .left: { editLine, _ in LineEditor.gesture(.left, editLine) },
            .right: { editLine, _ in LineEditor.gesture(.right, editLine) },
            .up: { editLine, _ in LineEditor.gesture(.up, editLine) },
            .space: { editLine, _ in LineEditor.gesture(.space, editLine) },
            .backspace: { editLine, _ in LineEditor.gesture(.backspace, editLine) },
        ]
        for (key, sequences) in Self.keySequences {
            // libedit keeps the name's pointer, not a copy: it must outlive the editor.
            let name = strdup("swipe-" + key.rawValue)!
            functionNames.append(name)
            swipe_el_add_function(editLine, name, "one-key gesture on an empty line", handlers[key]!)
            for sequence in sequences { swipe_el_bind(editLine, sequence, name) }
            if let arrow = [ReplKey.left: "left", .right: "right"][key] { swipe_el_bind_arrow(editLine, arrow, name) }
        }
    }

    private static func gesture(_ key: ReplKey, _ editLine: OpaquePointer?) -> UInt8 {
        guard let editLine, let owner = owner(of: editLine), let info = el_line(editLine)?.pointee,
            let buffer = info.buffer, let cursor = info.cursor, let last = info.lastchar
        else { return UInt8(CC_ERROR) }
        if buffer == last, owner.gesturesOn {
            owner.pendingKey = key
            return UInt8(CC_NEWLINE)
        }
        switch key {
        case .left:
            el_cursor(editLine, -1)
            return UInt8(CC_CURSOR)
        case .right:
            el_cursor(editLine, 1)
            return UInt8(CC_CURSOR)
        case .up:
            return UInt8(CC_NORM)
        case .space:
            el_insertstr(editLine, " ")
            return UInt8(CC_REFRESH)
        case .backspace:
            guard cursor > buffer else { return UInt8(CC_ERROR) }
            el_deletestr(editLine, 1)
            return UInt8(CC_REFRESH)
        }
    }

    deinit {
        el_end(editLine)
        functionNames.forEach { free($0) }
        history_end(history)
        free(promptText)
    }

    /// Reads one line (without its newline). A non-blank line joins the
    /// history, which is saved at once so a killed session keeps it too.
    func read() -> Reading {
        fflush(swipe_stdout())
        var count: Int32 = 0
        Self.interrupted = 0  // a Ctrl-C while a command ran is not one for this line
        let raw = el_gets(editLine, &count)
        // A gesture key ends an empty line without a newline, which el_gets
        // reports as nothing read (what Ctrl-D looks like): ask the key first.
        if let key = pendingKey {
            pendingKey = nil
            fputs("\n", swipe_stdout())
            fflush(swipe_stdout())
            return .key(key)
        }
        guard let raw else {
            if count == -1 && errno == EINTR {
                el_reset(editLine)
                fputs("\n", swipe_stdout())
                return .interrupted
            }
            return .end
        }
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        if !line.allSatisfy(\.isWhitespace) {
            swipe_history_enter(history, line)
            if let historyFile { swipe_history_save(history, historyFile) }
        }
        return .line(line)
    }

    /// Reads one UTF-8 character from standard input for libedit: 1 with
    /// the character, 0 at the end of input, -1 with errno EINTR when Ctrl-C
    /// interrupted it. A resize redraws the deck and answers ^] (redisplay
    /// the prompt and the line), as does any other signal (SIGCONT).
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        var bytes: [UInt8] = []
        while true {
            if bytes.isEmpty, let idle {
                // Wait for a key, listening meanwhile: news is printed above
                // the line, and ^] draws the prompt and the line again.
                var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiting, 1, Self.listenInterval)
                if ready == 0 {
                    let lines = idle()
                    guard !lines.isEmpty else { continue }
                    fputs("\r\u{1B}[J" + lines.joined(separator: "\n") + "\n", swipe_stdout())
                    fflush(swipe_stdout())
                    character.pointee = 0x1D  // ^]: ed-redisplay
                    return 1
                }
                if ready < 0 {
                    guard errno == EINTR else { return -1 }
                    return answerSignal(into: character)
                }
            }
            var byte: UInt8 = 0
            let count = Foundation.read(STDIN_FILENO, &byte, 1)
            if count == 1 {
                bytes.append(byte)
                let expected =
                    byte < 0x80 && bytes.count == 1
                    ? 1
                    : bytes[0] >= 0xF0 ? 4 : bytes[0] >= 0xE0 ? 3 : bytes[0] >= 0xC0 ? 2 : 1
                guard bytes.count >= expected else { continue }
                let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
                character.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            }
            if count == 0 { return 0 }
            guard errno == EINTR else { return -1 }
            return answerSignal(into: character)
        }
    }

    /// A read interrupted by a signal: a resize redraws the deck, Ctrl-C
    /// fails the read with EINTR, anything else redraws the line.
    private func answerSignal(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if Self.resized != 0 {
            Self.resized = 0
            if let lines = redraw?() {
                fputs("\r\u{1B}[J" + lines.joined(separator: "\n") + "\n", swipe_stdout())
                fflush(swipe_stdout())
            }
            character.pointee = 0x1D  // ^]: ed-redisplay
            return 1
        }
        if Self.interrupted != 0 {
            Self.interrupted = 0
            errno = EINTR
            return -1
        }
        // Another signal (SIGCONT after Ctrl-Z and fg): redraw the line.
        character.pointee = 0x1D
        return 1
    }

    /// SIGWINCH sets `resized` and interrupts the read.
    private static func noticeResizes() {
        interruptReads(on: SIGWINCH) { _ in LineEditor.resized = 1 }
    }

    /// Installs `handler` for `signal` without SA_RESTART, so a read under
    /// way fails with EINTR and the editor can answer the signal.
    private static func interruptReads(on signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    private static func owner(of editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = swipe_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    /// Tab: insert what all candidates share; with several left and nothing
    /// to insert, list them under the line and redraw it.
    private func completeLine(_ editLine: OpaquePointer) -> UInt8 {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_ERROR)
        }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
            count: cursor - buffer)
        let typed = String(decoding: bytes, as: UTF8.self)
        let completion = inChat ? ReplCompletion(chatLine: typed) : complete(typed)
        if completion.candidates.isEmpty { return UInt8(CC_ERROR) }
        let insertion = completion.insertion
        if !insertion.isEmpty {
            el_insertstr(editLine, insertion)
            return UInt8(CC_REFRESH)
        }
        fputs("\n" + completion.listing.joined(separator: "  ") + "\n", swipe_stdout())
        fflush(swipe_stdout())
        return UInt8(CC_REDISPLAY)
    }

    /// SIGINT must interrupt the read, not end the process: a handler that
    /// only notes it, installed without SA_RESTART.
    private static func keepProcessOnInterrupt() {
        interruptReads(on: SIGINT) { _ in LineEditor.interrupted = 1 }
    }
}
