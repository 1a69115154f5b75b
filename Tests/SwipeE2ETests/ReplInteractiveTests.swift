import Foundation
import SwipeCLI
import SwipeSession
import SwipeTestSupport
import Testing

/// The interactive REPL in a real terminal: tmux on a private socket, keys
/// sent with send-keys, the screen read with capture-pane until the expected
/// text appears (a condition with a deadline, not a sleep).
@Suite(.serialized) final class ReplInteractiveTests {
    let temporary = TemporaryFolder("swipe-tty")
    var folder: String { temporary.path }
    let socket = "swipe-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether tmux is here to drive the REPL on a terminal. Without it the
    /// test fails, never passes by skipping: `make test` installs tmux, so a
    /// missing one is a broken setup.
    static func hasTmux() -> Bool {
        if tmux != nil { return true }
        Issue.record("tmux is not installed: make test installs it (apt-get install tmux)")
        return false
    }

    init() throws {
        try "id,name,age,city,bio\na,Ana,30,Lisboa,\nb,Bo,28,Oslo,\"Sails.\nReads.\"\nc,Cy,41,,\n"
            .write(toFile: folder + "/p.csv", atomically: true, encoding: .utf8)
        #expect(try SwipeBinary.run(["import", "--db", folder + "/db.sqlite", folder + "/p.csv"]).status == 0)
    }

    /// Runs tmux on the private socket; returns what it printed. posix_spawn
    /// and waitpid rather than Process: the tmux server forked by the first
    /// command outlives its client and keeps Foundation's child watch from
    /// ever seeing the client exit.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = folder + "/tmux-out"
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The test runner blocks most signals and its children inherit the
        // mask: tmux and the REPL under it need the normal signals (SIGINT
        // for Ctrl-C, SIGHUP/SIGTERM to end).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([Self.tmux!, "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, Self.tmux!, &actions, &attributes, argv, environ) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The tmux session that `keys` and `screen` address.
    var target = "repl"

    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", target] + keys) }

    /// The screen once `condition` holds, polling capture-pane for up to 20 s.
    /// With `escapes`, the text keeps the terminal's colours and attributes
    /// as tmux re-encodes them (capture-pane -e).
    func screen(until condition: (String) -> Bool, _ what: String, escapes: Bool = false) throws -> String {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while Date() < deadline {
            text = try tmux(["capture-pane", "-p", "-J"] + (escapes ? ["-e"] : []) + ["-S", "-200", "-t", target])
            if condition(text) { return text }
            usleep(50_000)
        }
        Issue.record("timed out waiting for \(what); screen:\n\(text)")
        return text
    }

    /// The screen once the answer holding `needle` is drawn whole: the REPL
    /// prints an answer line by line, so `needle` alone may be on screen
    /// before the lines after it; the prompt after it comes last.
    func screen(answered needle: String, escapes: Bool = false) throws -> String {
        try screen(
            until: { text in
                guard let found = text.range(of: needle, options: .backwards) else { return false }
                // The prompt says where you are: `swipe> `, `swipe[detail]> `…
                return text[found.upperBound...].range(of: #"swipe(\[[a-z]+\])?> "#, options: .regularExpression) != nil
            }, "the answer with \(needle), then the prompt", escapes: escapes)
    }

    /// Starts the REPL as viewer `a` in a new tmux session named `name`, with
    /// `environment` (e.g. NO_COLOR=1) added, and waits for its prompt.
    /// `echo` reports its exit status on screen; `sleep` keeps the pane.
    func startREPL(
        _ environment: String, session name: String = "repl", viewer: String? = "a", waitFor prompt: String = "swipe> ",
        columns: Int = 100
    ) throws {
        // -u NO_COLOR: the test runner may have it set, and tmux passes its
        // environment on to the session.
        let command =
            "env -u NO_COLOR -u SWIPE_AS XDG_STATE_HOME=\(folder)/state TERM=xterm \(environment) "
            + "\(SwipeBinary.url.path) --db \(folder)/db.sqlite" + (viewer.map { " --as " + $0 } ?? "")
            + "; echo EXIT-STATUS-$?; sleep 600"
        target = name
        try tmux(["new-session", "-d", "-s", name, "-x", String(columns), "-y", "60", command])
        _ = try screen(until: { $0.contains(prompt) }, "the prompt")
    }

    /// The terminal is the oracle for display width: each sample is printed
    /// in its own tmux pane and the cursor's column read back.
    @Test("display width agrees with the terminal: combining marks, Thai, ZWJ emoji, CJK, flags")
    func displayWidthMatchesTheTerminal() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        let samples = [
            "राहुल वर्मा", "สวัสดี", "กำลัง", "👩‍💻", "👩‍❤️‍👨 ok", "中文字 abc", "한국어", "e\u{301}té", "🇵🇹 Lisboa",
            "👍🏽", "Ｆｕｌｌ", "Zoë", "각", "نور", "plain ascii",
        ]
        for (index, sample) in samples.enumerated() {
            let file = temporary.file("sample-\(index).txt", sample)
            target = "width\(index)"
            try tmux(["-u", "new-session", "-d", "-s", target, "-x", "120", "-y", "5", "cat \(file); sleep 600"])
            var column = -1, previous = -2
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                previous = column
                column =
                    Int(
                        try tmux(["display", "-p", "-t", target, "#{cursor_x}"])
                            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
                if column > 0 && column == previous { break }
                usleep(50_000)
            }
            #expect(TerminalText.displayWidth(sample) == column, "\(sample): the terminal put the cursor at \(column)")
        }
    }

    @Test(
        "one-key gestures on an empty line: → like and ← nope as drags, Space open and back, Backspace undo, Shift-↑ superlike"
    )
    func oneKeyGestures() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1")
        try keys("Right")
        _ = try screen(answered: "♥ liked Bo (b) by drag")
        try keys("Space")
        _ = try screen(until: { $0.contains("╭─ Cy, 41") && $0.contains("swipe[detail]> ") }, "the detail page")
        try keys("Space")
        _ = try screen(answered: "← closed the detail page")
        try keys("Left")
        _ = try screen(answered: "✕ noped Cy (c) by drag")
        try keys("BSpace")
        _ = try screen(answered: "↶ took back hate of Cy (c)")
        try keys("S-Up")
        _ = try screen(answered: "★ superliked Cy (c) by button")
        // On a line being typed the keys edit as usual: "decx", Backspace, "k" is "deck";
        // "atches", ← ×6, "m" is "matches". (The deck is empty now: the prompt says so.)
        try keys("decx", "BSpace", "k", "Enter")
        let drawn = try screen(answered: "swipe[empty]> deck")
        #expect(!drawn.contains("error:"), "\(drawn)")
        try keys("atches", "Left", "Left", "Left", "Left", "Left", "Left", "m", "Enter")
        let moved = try screen(answered: "swipe[empty]> matches")
        #expect(moved.contains("no matches yet"), "\(moved)")
        // ↑ still recalls the last line.
        try keys("Up")
        _ = try screen(
            until: { screen in
                screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }?.hasSuffix("> matches") == true
            }, "matches recalled by ↑")
        try keys("C-u", "quit", "Enter")
        _ = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")
    }

    @Test(
        "the picture fits the terminal: 40 columns compact, 200 wide enough for a long drag, resized between commands")
    func pictureFitsTheWidth() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        /// The widest line of the answer after the last `swipe> COMMAND`.
        func widest(_ screen: String, after command: String) -> Int {
            let answer = screen.components(separatedBy: "swipe> " + command).last ?? ""
            return answer.split(separator: "\n").map { TerminalText.displayWidth(String($0)) }.max() ?? 0
        }
        try startREPL("NO_COLOR=1", session: "narrow", columns: 40)
        try keys("drag 60 0", "Enter")
        let narrow = try screen(answered: "drag (+60, 0) pt")
        // capture-pane -J joins wrapped lines: a picture wider than 40 would show as a longer line.
        #expect(widest(narrow, after: "drag 60 0") <= 40, "\(narrow)")
        #expect(narrow.contains("LIKE") && narrow.contains("( ★ )"), "\(narrow)")
        try tmux(["resize-window", "-t", "narrow", "-x", "200"])
        try keys("drag 250 0", "Enter")
        let wide = try screen(answered: "drag (+250, 0) pt")
        #expect(wide.contains("[LIKE]"), "the stamp of a card dragged 250 pt is whole at 200 columns:\n\(wide)")
        #expect((101...200).contains(widest(wide, after: "drag 250 0")), "\(wide)")
    }

    /// The first-hour defect (issue 24): the start-up banner ran past the
    /// terminal's edge and broke mid-word. capture-pane -J joins lines the
    /// terminal wrapped, so a banner the REPL did not wrap itself shows as
    /// one line wider than the terminal.
    @Test("the start-up banner wraps at word boundaries to the terminal's width")
    func bannerWrapsAtWords() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1", session: "banner", columns: 44)
        let screen = try screen(until: { $0.contains("swipe> ") }, "the prompt")
        let lines = screen.split(separator: "\n").map(String.init)
        let banner = Array(lines.prefix { !$0.contains("╭") })
        #expect(banner.count > 1 && banner.allSatisfy { TerminalText.displayWidth($0) <= 44 }, "\(screen)")
        #expect(
            banner.joined(separator: " ")
                == "swipe: swiping as Ana (a), physics tantan. Type help for the commands; Ctrl-D or quit ends.",
            "\(banner)")
    }

    @Test("a resize while a line is typed redraws the deck at the new width and keeps the line")
    func resizeRedraws() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1", session: "resize", columns: 100)
        try keys("dra")
        _ = try screen(until: { $0.contains("swipe> dra") }, "the half-typed line")
        try tmux(["resize-window", "-t", "resize", "-x", "50"])
        // Under 60 columns the buttons are short: the redrawn deck, then the prompt and "dra" again.
        let redrawn = try screen(
            until: { screen in
                guard let compact = screen.range(of: "( ✕ )", options: .backwards) else { return false }
                return screen[compact.upperBound...].contains("swipe> dra")
            }, "the deck redrawn at 50 columns, then the line")
        #expect(redrawn.contains("( ★ )"))
        try keys("g 10 0", "Enter")
        _ = try screen(answered: "drag (+10, 0) pt")
    }

    @Test("the first run asks who is swiping, again after a wrong id, with Tab completion of ids")
    func firstRunViewerPrompt() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1", viewer: nil, waitFor: "profile id> ")
        try keys("zz", "Enter")
        _ = try screen(until: { $0.contains("no profile has id \"zz\"; try again") }, "the wrong id named")
        // Tab on an empty answer lists every id (a, b, c); "b" + Tab completes to "b ".
        try keys("Tab")
        _ = try screen(until: { $0.contains("a  b  c") }, "the ids listed")
        try keys("b", "Tab", "Enter")
        _ = try screen(until: { $0.contains("swiping as Bo (b)") && $0.contains("swipe> ") }, "the session as b")
        try keys("quit", "Enter")
        _ = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")
    }

    @Test("Ctrl-D ends the session on a new line; the prompt shows the detail page")
    func ctrlDAndPrompt() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1")
        try keys("open", "Enter")
        _ = try screen(until: { $0.contains("swipe[detail]> ") }, "the detail prompt")
        try keys("back", "Enter")
        _ = try screen(answered: "← closed the detail page")
        try keys("C-d")
        let ended = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")
        let lines = ended.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("EXIT-STATUS-0"), "the shell's next output starts its own line:\n\(ended)")
    }

    /// Colour is on when standard output is a terminal and NO_COLOR is unset:
    /// the LIKE stamp of a card dragged right is green (SGR 32), the NOPE of
    /// one dragged left red (SGR 31). With NO_COLOR=1 the same screen has no
    /// colour at all.
    @Test func colourOnlyInATerminalWithoutNoColor() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        /// The escape sequences just before `word` on the screen.
        func attributes(before word: String, in screen: String) -> String {
            let pattern = #"(\x1B\[[0-9;]*m)*"# + NSRegularExpression.escapedPattern(for: word)
            guard let found = screen.range(of: pattern, options: .regularExpression) else { return "(no \(word))" }
            return String(screen[found].dropLast(word.count))
        }
        try startREPL("")
        try keys("drag 120 0", "Enter")
        let right = try screen(answered: "drag (+120, 0) pt", escapes: true)
        #expect(attributes(before: "[LIKE]", in: right).contains("\u{1B}[32m"), "\(right)")
        try keys("drag -240 0", "Enter")  // translations are absolute, not added up
        let left = try screen(answered: "drag (-240, 0) pt", escapes: true)
        #expect(attributes(before: "[NOPE]", in: left).contains("\u{1B}[31m"), "\(left)")
        try keys("quit", "Enter")
        _ = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")

        try startREPL("NO_COLOR=1", session: "plain")
        try keys("drag 120 0", "Enter")
        let plain = try screen(answered: "drag (+120, 0) pt", escapes: true)
        #expect(plain.contains("[LIKE]"))
        for colour in 30...37 {
            #expect(!plain.contains("\u{1B}[\(colour)m"), "SGR \(colour) with NO_COLOR=1")
        }
    }

    @Test("drag, release, the detail flow, Ctrl-C, Tab completion and the history file")
    func session() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        try startREPL("NO_COLOR=1")

        // Tab completes "dr" to "drag ".
        try keys("dr", "Tab")
        _ = try screen(until: { $0.contains("swipe> drag ") }, "drag completed")
        try keys("120 0", "Enter")
        let dragged = try screen(answered: "drag (+120, 0) pt")
        #expect(dragged.contains("[LIKE]") && dragged.contains("-14.4°"))

        try keys("release", "Enter")
        _ = try screen(answered: "♥ liked Bo (b) by drag")

        // Ctrl-C during a drag cancels it: the card springs back, and the
        // next command is not refused for a drag in progress.
        try keys("drag 30 0", "Enter")
        _ = try screen(answered: "drag (+30, 0) pt")
        try keys("C-c")
        _ = try screen(answered: "↷ spring-back 0.5 s")

        // Ctrl-C drops the half-typed line; the session goes on.
        try keys("hate and then", "C-c")
        try keys("open", "Enter")
        let detail = try screen(answered: "╭─ Cy, 41")
        #expect(!detail.contains("error: unknown command \"hate"))
        #expect(!detail.contains("a drag is in progress"))

        try keys("like", "Enter")
        let liked = try screen(answered: "♥ liked Cy (c) by detail")
        let closed = liked.range(of: "← closed the detail page")
        let flown = liked.range(of: "↷ button-like right 0.8 s")
        #expect(closed != nil && flown != nil && closed!.lowerBound < flown!.lowerBound, "both steps, in order")

        try keys("quit", "Enter")
        _ = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")
        let history = try String(contentsOfFile: folder + "/state/swipe/history", encoding: .utf8)
        for line in ["drag\\040120\\0400", "release", "open", "like", "quit"] {
            #expect(history.contains(line + "\n"), "\(line) in \(history)")
        }
        #expect(!history.contains("hate and then"))
    }

    /// A chat at a real terminal (issue 21, "report from a chat"): the chat
    /// prompt, Tab completing the chat's `/` commands (not the deck's),
    /// a line beginning with `report` held back with a hint, and
    /// `/report REASON` reporting the match and leaving the chat.
    @Test func reportFromInsideAChatAtTheTerminal() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        let decisions = temporary.file(
            "decisions.csv",
            "viewer,profile,decision,decided_at\na,b,like,2026-11-20T10:00:00Z\nb,a,like,2026-11-20T11:00:00Z\n")
        #expect(try SwipeBinary.run(["import", "--db", folder + "/db.sqlite", "--decisions", decisions]).status == 0)
        try startREPL("NO_COLOR=1")
        try keys("chat b", "Enter")
        _ = try screen(until: { $0.contains("swipe[chat Bo]> ") }, "the chat prompt")
        try keys("report her", "Enter")
        let held = try screen(until: { $0.contains("error: not sent: to report Bo, type /report REASON") }, "the hint")
        #expect(!held.contains("› sent to"), "\(held)")
        try keys("/rep", "Tab")
        _ = try screen(until: { $0.contains("swipe[chat Bo]> /report ") }, "/report completed")
        try keys("rude at night", "Enter")
        let left = try screen(
            until: {
                $0.range(of: #"left the chat with Bo, back to the deck\n(.*\n)*swipe> "#, options: .regularExpression)
                    != nil
            }, "the report answered and the deck's prompt")
        #expect(left.contains("reported b and blocked them; your match ended"), "\(left)")
        try keys("quit", "Enter")
        _ = try screen(until: { $0.contains("EXIT-STATUS-0") }, "exit status 0")
        let reports = try SwipeBinary.run(["reports", "--db", folder + "/db.sqlite", "--format", "csv"])
        #expect(reports.stdout.contains("a,b,rude at night,"), "\(reports.stdout)")
    }

    /// A reply sent with `swipe send` shows in the open chat as it arrives,
    /// with the line being typed kept; a message and a match made elsewhere
    /// show at the deck with what to type to answer them.
    @Test func messagesAndMatchesMadeElsewhereShowAsTheyArrive() throws {
        guard Self.hasTmux() else { return }
        defer { _ = try? tmux(["kill-server"]) }
        let decisions = temporary.file(
            "decisions.csv",
            "viewer,profile,decision,decided_at\na,b,like,2026-11-20T10:00:00Z\nb,a,like,2026-11-20T11:00:00Z\n"
                + "c,a,like,2026-11-20T12:00:00Z\n")
        #expect(try SwipeBinary.run(["import", "--db", folder + "/db.sqlite", "--decisions", decisions]).status == 0)
        try startREPL("NO_COLOR=1")
        let db = folder + "/db.sqlite"
        #expect(try SwipeBinary.run(["send", "--db", db, "--as", "b", "a", "are you free tonight?"]).status == 0)
        _ = try screen(until: { $0.contains("› Bo (b): are you free tonight? · chat b to reply") }, "b's message")
        let script = temporary.file("like-c.txt", "like c\n")
        #expect(try SwipeBinary.run(["repl", "--db", db, "--as", "a", "--json"], stdin: script).status == 0)
        _ = try screen(until: { $0.contains("♥ new match: Cy (c) · chat c to say hello") }, "the match made elsewhere")
        try keys("chat b", "Enter")
        _ = try screen(until: { $0.contains("swipe[chat Bo]> ") }, "the chat prompt")
        try keys("half a rep")
        _ = try screen(until: { $0.contains("swipe[chat Bo]> half a rep") }, "the line being typed")
        #expect(try SwipeBinary.run(["send", "--db", db, "--as", "b", "a", "8 at the pier"]).status == 0)
        let shown = try screen(
            until: {
                $0.range(of: #"Bo: 8 at the pier\nswipe\[chat Bo\]> half a rep"#, options: .regularExpression) != nil
            },
            "the reply above the prompt, the typed line kept")
        #expect(shown.components(separatedBy: "8 at the pier").count == 2, "told once: \(shown)")
        try keys("ly", "Enter")
        _ = try screen(until: { $0.contains("› sent to Bo: half a reply") }, "the reply sent")
        let messages = try SwipeBinary.run(["messages", "--db", db, "--as", "b", "a", "--format", "csv"])
        #expect(messages.stdout.contains(",half a reply,"), "\(messages.stdout)")
    }
}
