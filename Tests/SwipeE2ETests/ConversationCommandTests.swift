import Foundation
import SwipeTestSupport
import Testing

/// Conversations end to end through the built binary (Documentation/REPL.md, "Conversations"), on each
/// backend: `swipe send`, `swipe messages`, `swipe inbox`, the REPL's
/// `chat`, `say` and `inbox` as a script and in JSON mode, refusals naming
/// their rule, and message text that cannot drive the terminal.
@Suite final class ConversationCommandTests {
    let temporary = TemporaryFolder("swipe-chat")
    let stores = TestStores()
    var db = ""

    static let people = """
        id,name,age,gender
        me,Mo,30,m
        ana,Ana,28,f
        bea,Bea,33,f
        gil,Gil,30,m

        """

    /// me matches ana and bea (past decisions); gil likes me, unanswered.
    func load(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let profiles = temporary.file("people.csv", Self.people)
        let decisions = temporary.file(
            "decisions.csv",
            """
            viewer,profile,decision,decided_at
            me,ana,like,2026-11-20T10:00:00Z
            ana,me,like,2026-11-20T11:00:00Z
            me,bea,like,2026-11-20T12:00:00Z
            bea,me,superlike,2026-11-20T13:00:00Z
            gil,me,like,2026-11-20T14:00:00Z

            """)
        for arguments in [["import", "--db", db, profiles], ["import", "--db", db, "--decisions", decisions]] {
            let result = try SwipeBinary.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    func swipe(_ arguments: [String], stdin: String? = nil) throws -> SwipeBinary.Result {
        let input = stdin.map { temporary.file("stdin-" + UUID().uuidString, $0) } ?? "/dev/null"
        return try SwipeBinary.run(arguments.map { $0 == "DB" ? db : $0 }, stdin: input)
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    @Test(arguments: TestBackend.all) func sendMessagesAndInbox(_ backend: TestBackend) throws {
        try load(backend)
        let sent = try swipe(["send", "--db", "DB", "--as", "me", "ana", "hello", "there"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("hello there"))
        // A retry with the same client id: the stored message, marked a retry.
        let first = try jsonLines(
            try swipe([
                "send", "--db", "DB", "--as", "ana", "me", "hi Mo", "--client-id", "c1",
                "--format", "jsonl",
            ]).stdout)
        let again = try jsonLines(
            try swipe([
                "send", "--db", "DB", "--as", "ana", "me", "hi Mo", "--client-id", "c1",
                "--format", "jsonl",
            ]).stdout)
        #expect(first.first?["seq"] as? Int == 2 && first.first?["retry"] as? String == "false")
        #expect(again.first?["seq"] as? Int == 2 && again.first?["retry"] as? String == "true")
        #expect(again.first?["sent_at"] as? String == first.first?["sent_at"] as? String)

        let inbox = try jsonLines(try swipe(["inbox", "--db", "DB", "--as", "me", "--format", "jsonl"]).stdout)
        #expect(inbox.map { $0["profile"] as? String } == ["ana", "bea"])
        #expect(inbox.first?["unread"] as? Int == 1 && inbox.first?["last_text"] as? String == "hi Mo")
        #expect(inbox.last?["last_text"] is NSNull)

        let read = try swipe(["messages", "--db", "DB", "--as", "me", "ana", "--format", "jsonl"])
        #expect(read.status == 0, "\(read.stderr)")
        let messages = try jsonLines(read.stdout)
        #expect(messages.map { $0["text"] as? String } == ["hello there", "hi Mo"])
        #expect(messages.map { $0["sender"] as? String } == ["me", "ana"])
        #expect(messages.last?["read_at"] is String, "reading marked it read")
        let after = try jsonLines(try swipe(["inbox", "--db", "DB", "--as", "me", "--format", "jsonl"]).stdout)
        #expect(after.first?["unread"] as? Int == 0)
    }

    @Test(arguments: TestBackend.all) func refusalsNameTheRule(_ backend: TestBackend) throws {
        try load(backend)
        let noMatch = try swipe(["send", "--db", "DB", "--as", "me", "gil", "hi"])
        #expect(noMatch.status == 1)
        #expect(noMatch.stderr.contains("you and gil have no match: only a match can converse"), "\(noMatch.stderr)")
        #expect(try swipe(["rules", "--db", "DB", "set", "first-move", "f"]).status == 0)
        let firstMove = try swipe(["send", "--db", "DB", "--as", "me", "bea", "hi"])
        #expect(firstMove.stderr.contains("(rule first-move: f)"), "\(firstMove.stderr)")
        let long = try swipe(["send", "--db", "DB", "--as", "bea", "me", String(repeating: "x", count: 2001)])
        #expect(long.stderr.contains("at most 2000 characters; this one has 2001"), "\(long.stderr)")
        #expect(try swipe(["send", "--db", "DB", "--as", "bea", "me", "hi"]).status == 0)
        #expect(try swipe(["unmatch", "--db", "DB", "--as", "me", "bea"]).status == 0)
        let ended = try swipe(["send", "--db", "DB", "--as", "bea", "me", "still there?"])
        #expect(ended.stderr.contains("your conversation with me ended at"), "\(ended.stderr)")
        let rules = try swipe(["rules", "--db", "DB", "--format", "csv"])
        #expect(
            rules.stdout.hasSuffix(
                "first-move,f\r\nmatch-expiry,off\r\nfirst-messages-per-day,off\r\nevidence-days,90\r\nmessages-per-minute,10\r\n"
            ))
    }

    /// A message can hold escape sequences; the terminal never gets them.
    @Test(arguments: TestBackend.all) func messageTextNeverDrivesTheTerminal(_ backend: TestBackend) throws {
        try load(backend)
        let evil = "red \u{1B}[31m\u{1B}]0;owned\u{07} text"
        #expect(try swipe(["send", "--db", "DB", "--as", "ana", "me", evil]).status == 0)
        for arguments in [["messages", "--db", "DB", "--as", "me", "ana"], ["inbox", "--db", "DB", "--as", "me"]] {
            let out = try swipe(arguments)
            #expect(out.status == 0 && out.stdout.contains("red") && !out.stdout.contains("\u{1B}"), "\(arguments)")
        }
        let repl = try swipe(["repl", "--db", "DB", "--as", "me"], stdin: "chat ana\n/back\ninbox\n")
        #expect(repl.stdout.contains("red") && !repl.stdout.contains("\u{1B}") && !repl.stdout.contains("\u{07}"))
        // Data formats keep the bytes exactly (to a file, as here).
        let json = try jsonLines(
            try swipe(["messages", "--db", "DB", "--as", "me", "ana", "--format", "jsonl"]).stdout)
        #expect(json.first?["text"] as? String == evil)
    }

    @Test(arguments: TestBackend.all) func theReplChatsSaysAndListsTheInbox(_ backend: TestBackend) throws {
        try load(backend)
        let script = "say ana are you free tonight?\nchat ana\nhow about eight\n\n/back\ninbox\nchat gil\n"
        let result = try swipe(["repl", "--db", "DB", "--as", "me"], stdin: script)
        #expect(result.status == 1, "the last line (chat gil, no match) failed: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("› sent to ana: are you free tonight?"), "\(out)")
        #expect(out.contains("chat with Ana (ana): type to send, /back returns to the deck"), "\(out)")
        #expect(out.contains("you: are you free tonight?"), "\(out)")
        #expect(out.contains("› sent to Ana: how about eight"), "\(out)")
        #expect(out.contains("left the chat with Ana, back to the deck"), "\(out)")
        #expect(out.contains("★ ana Ana · you: how about eight"), "\(out)")
        #expect(out.contains("★ bea Bea · matched"), "\(out)")
        #expect(out.contains("error: you and gil have no match: only a match can converse"), "\(out)")
        let ana = try jsonLines(try swipe(["messages", "--db", "DB", "--as", "ana", "me", "--format", "jsonl"]).stdout)
        #expect(ana.map { $0["text"] as? String } == ["are you free tonight?", "how about eight"])
    }

    @Test(arguments: TestBackend.all) func jsonModeCarriesTheSameCommands(_ backend: TestBackend) throws {
        try load(backend)
        let script = "chat ana\nhello\n/back\nsay --id k1 ana again\nsay --id k1 ana again\ninbox\nsay ana \n"
        let result = try swipe(["repl", "--json", "--db", "DB", "--as", "me"], stdin: script)
        let answers = try jsonLines(result.stdout)
        #expect(answers.count == 7, "\(result.stdout)")
        guard answers.count == 7 else { return }
        #expect((answers[0]["chat"] as? [String: Any])?["name"] as? String == "Ana")
        #expect((answers[0]["messages"] as? [Any])?.isEmpty == true)
        #expect(answers[0]["mode"] as? String == "deck" && answers[0]["cards"] is [Any])
        #expect((answers[1]["message"] as? [String: Any])?["text"] as? String == "hello")
        #expect((answers[1]["message"] as? [String: Any])?["seq"] as? Int == 1)
        #expect(answers[2]["left_chat"] as? String == "ana")
        #expect(answers[3]["retry"] as? Bool == false && answers[4]["retry"] as? Bool == true)
        #expect((answers[4]["message"] as? [String: Any])?["seq"] as? Int == 2)
        let inbox = answers[5]["inbox"] as? [[String: Any]] ?? []
        #expect(inbox.map { $0["profile"] as? String } == ["ana", "bea"])
        #expect((inbox.first?["last"] as? [String: Any])?["client_id"] as? String == "k1")
        #expect(answers[6]["ok"] as? Bool == false)
    }

    /// `/report` in the REPL's chat, through the binary as a script: the
    /// report is stored with the conversation (`swipe reports --messages`),
    /// the chat is left, and the match is gone from the inbox.
    @Test(arguments: TestBackend.all) func reportFromInsideAChat(_ backend: TestBackend) throws {
        try load(backend)
        #expect(try swipe(["send", "--db", "DB", "--as", "ana", "me", "you up?"]).status == 0)
        let script = "chat ana\nreport creepy\n/report creepy at night\ninbox\n"
        let result = try swipe(["repl", "--db", "DB", "--as", "me"], stdin: script)
        #expect(result.status == 1, "the second line (report as a message) was refused: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("error: not sent: to report Ana, type /report REASON"), "\(out)")
        #expect(out.contains("reported ana and blocked them; your match ended"), "\(out)")
        #expect(out.contains("left the chat with Ana, back to the deck"), "\(out)")
        #expect(out.contains("★ bea Bea") && !out.contains("★ ana"), "\(out)")
        let reports = try jsonLines(try swipe(["reports", "--db", "DB", "--format", "jsonl"]).stdout)
        #expect(reports.map { $0["reason"] as? String } == ["creepy at night"])
        let kept = try jsonLines(try swipe(["reports", "--db", "DB", "--messages", "--format", "jsonl"]).stdout)
        #expect(kept.map { $0["text"] as? String } == ["you up?"], "the refused line was never sent")

        // JSON mode: the same line answers as `report` does, with `left_chat`.
        let json = try jsonLines(
            try swipe(["repl", "--json", "--db", "DB", "--as", "me"], stdin: "chat bea\n/report spam\n/back\n").stdout)
        #expect(json.count == 3)
        guard json.count == 3 else { return }
        #expect(json[1]["ok"] as? Bool == true && json[1]["left_chat"] as? String == "bea")
        #expect(json[2]["ok"] as? Bool == false, "/back after leaving is a deck command that does not parse")
    }
}
