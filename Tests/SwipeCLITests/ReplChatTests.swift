import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// The REPL's conversations (Documentation/REPL.md, "Conversations") in one session over a SQLite
/// store: the chat prompt, lines sent, `/back`, a chat that closes when the
/// match ends elsewhere, Tab completion of match ids, parsing.
@Suite final class ReplChatTests {
    let temporary = TemporaryFolder("swipe-repl-chat")
    var path: String { temporary.path + "/chat.sqlite" }

    /// v matches a and b; c only likes v.
    init() throws {
        let store = try SQLiteStore(path: path)
        // A burst of messages to one person: the rule messages-per-minute is ModerationTests'.
        try store.setRule("messages-per-minute", "1000000")
        for id in ["v", "a", "b", "c"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        for other in ["a", "b"] {
            _ = try store.record(viewer: "v", profile: other, decision: .like, via: .drag)
            _ = try store.record(viewer: other, profile: "v", decision: .like, via: .drag)
        }
        _ = try store.record(viewer: "c", profile: "v", decision: .like, via: .drag)
    }

    func session(_ format: ReplFormat = .text(ReplStyle(color: false))) throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: "v", format: format, pictures: false)
    }

    @Test func aChatSendsEachLineUntilBack() throws {
        var session = try session()
        var out = ""
        #expect(session.run("chat a", into: &out))
        #expect(session.prompt == "swipe[chat Name a]> ")
        #expect(out.contains("chat with Name a (a): type to send") && out.contains("no messages yet"))
        out = ""
        #expect(session.run("like", into: &out), "in a chat a deck word is a message")
        #expect(out.hasPrefix("› sent to Name a: like"))
        #expect(session.run("/back", into: &out))
        #expect(session.chat == nil && session.prompt == "swipe> ")
        let store = try SQLiteStore(path: path)
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "v")).map(\.text) == ["like"])
        #expect(try store.history(HistoryQuery(viewer: "v")).count == 2, "no like was recorded")
    }

    @Test func aChatClosesWhenTheMatchEndsElsewhere() throws {
        var session = try session()
        var out = ""
        #expect(session.run("chat b", into: &out))
        try SQLiteStore(path: path).unmatch(viewer: "b", profile: "v")
        out = ""
        #expect(!session.run("are you there?", into: &out))
        #expect(out.contains("your conversation with b ended at") && out.contains("the chat with Name b is closed"))
        #expect(session.chat == nil)
    }

    @Test func chatShowsTheLast20AndMarksThemRead() throws {
        let store = try SQLiteStore(path: path)
        for n in 1...25 { _ = try store.send(MessageSend(viewer: "a", profile: "v", text: "m\(n)", clientID: "\(n)")) }
        var session = try session(ReplFormat.json)
        var out = ""
        #expect(session.run("chat a", into: &out))
        let answer = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        let texts = (answer["messages"] as? [[String: Any]] ?? []).map { $0["text"] as? String }
        #expect(texts == (6...25).map { "m\($0)" })
        #expect(try store.inbox(viewer: "v").first { $0.profile == "a" }?.unread == 0)
    }

    /// Tab completes from the list the command needs (issue 21): matches for
    /// `chat`, `say` and `unmatch` (not the decision history, which holds
    /// people noped), likers for `like`; a listing names each id's person.
    @Test func tabCompletesMatchIDsForChatSayAndUnmatch() {
        let decided = ["a", "b", "c-decided"]
        let matched: [(id: String, name: String)] = [("a", "Ana"), ("b", "Bo \u{1B}[31m")]
        let likers: [(id: String, name: String)] = [("c-liker", "Cy")]
        #expect(
            ReplCompletion(lineBeforeCursor: "chat ", profileIDs: decided, matches: matched).candidates == ["a", "b"])
        #expect(ReplCompletion(lineBeforeCursor: "say b", profileIDs: decided, matches: matched).insertion == " ")
        #expect(ReplCompletion(lineBeforeCursor: "unmatch c", profileIDs: decided, matches: matched).candidates == [])
        let unmatch = ReplCompletion(lineBeforeCursor: "unmatch ", profileIDs: decided, matches: matched)
        #expect(unmatch.candidates == ["a", "b"])
        #expect(unmatch.listing == ["a (Ana)", "b (Bo \u{FFFD}[31m)"], "names are shown without control characters")
        let like = ReplCompletion(
            lineBeforeCursor: "like c", profileIDs: decided, matches: matched, likers: likers)
        #expect(like.candidates == ["c-liker"] && like.insertion == "-liker ")
        let open = ReplCompletion(
            lineBeforeCursor: "open ", profileIDs: decided, matches: matched, likers: likers)
        #expect(open.candidates == ["a", "b", "c-decided", "c-liker"])
        #expect(ReplCompletion(lineBeforeCursor: "inb", profileIDs: decided).insertion == "ox ")
    }

    /// `/report REASON` in a chat (issue 21, "report from a chat keeps the
    /// last 50 messages"): the report is stored, a blocks a's way, the match
    /// and so the conversation end for both, the chat closes; the report's
    /// transcript is the pair's 50 newest messages, worked out by hand from
    /// the 60 sent (both ways, alternating).
    @Test func slashReportReportsTheMatchKeepsFiftyMessagesAndLeaves() throws {
        let store = try SQLiteStore(path: path)
        for n in 1...60 {
            let (from, to) = n.isMultiple(of: 2) ? ("v", "a") : ("a", "v")
            _ = try store.send(MessageSend(viewer: from, profile: to, text: "m\(n)", clientID: "c\(n)"))
        }
        var session = try session()
        var out = ""
        #expect(session.run("chat a", into: &out))
        out = ""
        #expect(session.run("/report   rude   messages ", into: &out), "\(out)")
        #expect(out.contains("reported a and blocked them; your match ended"), "\(out)")
        #expect(out.contains("left the chat with Name a, back to the deck"), "\(out)")
        #expect(session.chat == nil && session.prompt == "swipe> ")
        let reports = try store.reports()
        #expect(reports.map { [$0.reporter, $0.reported, $0.reason] } == [["v", "a", "rude   messages"]])
        let kept = try store.transcript(of: try #require(reports.first), limit: Report.transcriptLength)
        #expect(kept.map(\.text) == (11...60).map { "m\($0)" })
        #expect(kept.map(\.sender) == (11...60).map { $0.isMultiple(of: 2) ? "v" : "a" })
        #expect(try store.blocked(viewer: "v") == ["a"])
        #expect(try store.matches(viewer: "v").map(\.profile) == ["b"], "the match with a ended")
        // The conversation is over for both: neither can send.
        #expect(throws: StoreError.self) {
            try store.send(MessageSend(viewer: "a", profile: "v", text: "hey", clientID: "late"))
        }
        // A line after it is a deck command again.
        out = ""
        #expect(session.run("inbox", into: &out))
        #expect(!out.contains("Name a") && out.contains("Name b"), "\(out)")
    }

    /// In JSON mode `/report` answers as `report ID REASON` does, plus `left_chat`.
    @Test func slashReportInJSONModeSaysTheChatWasLeft() throws {
        var session = try session(.json)
        var out = ""
        #expect(session.run("chat b", into: &out))
        out = ""
        #expect(session.run("/report spam", into: &out))
        let answer = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        #expect(answer["ok"] as? Bool == true)
        #expect(answer["command"] as? String == "/report spam")
        #expect(answer["left_chat"] as? String == "b")
        #expect(answer["chat"] == nil)
        #expect((answer["notice"] as? String)?.hasPrefix("reported b and blocked them; your match ended") == true)
        #expect(answer["mode"] as? String == "deck" && answer["cards"] is [Any])
        #expect(try SQLiteStore(path: path).reports().map(\.reported) == ["b"])
    }

    /// What a chat refuses to send, and what gets past it: a line beginning
    /// with the word report (sent, it would tell the person reported), a
    /// `/word` that is no chat command, `/report` with no reason; `/say`
    /// sends any line as it is; `/help` lists the commands.
    @Test func aChatRefusesLinesThatWouldSurpriseAndSaySendsThemAsTheyAre() throws {
        var session = try session()
        var out = ""
        #expect(session.run("chat a", into: &out))
        for line in ["report he was rude", "Report", "/bakc", "/report", "/report   ", "/back now", "/say"] {
            out = ""
            #expect(!session.run(line, into: &out), "\(line) was accepted")
            #expect(out.hasPrefix("error: "), "\(line): \(out)")
            #expect(session.chat?.id == "a", "\(line) left the chat")
        }
        out = ""
        session.run("report he was rude", into: &out)
        #expect(out.contains("/report REASON") && out.contains("/say report he was rude"), "\(out)")
        out = ""
        #expect(session.run("/help", into: &out))
        for command in ["/back", "/report REASON", "/say TEXT", "/help", "/quit"] {
            #expect(out.contains(command), "/help lists \(command): \(out)")
        }
        #expect(session.run("/say report card came today", into: &out))
        #expect(session.run("/say /back soon", into: &out))
        #expect(session.run("reporting live", into: &out), "only the word report itself is held back")
        let store = try SQLiteStore(path: path)
        #expect(
            try store.messages(MessageQuery(viewer: "a", profile: "v")).map(\.text)
                == ["report card came today", "/back soon", "reporting live"])
        #expect(try store.reports().isEmpty)
    }

    @Test func tabInAChatCompletesTheChatCommands() {
        #expect(ReplCompletion(chatLine: "/r").insertion == "eport ")
        #expect(ReplCompletion(chatLine: "/").candidates == ["/back", "/help", "/quit", "/report", "/say"])
        #expect(ReplCompletion(chatLine: "hello /r").candidates == [])
        #expect(ReplCompletion(chatLine: "li").candidates == [], "a message is not a deck command")
    }

    @Test func theCommandsParse() throws {
        #expect(try Command.parse("chat m-3") == .conversation(.chat("m-3")))
        // Free text is the rest of the line as typed: spaces and quotes are the message's own.
        #expect(
            try Command.parse("say m-3 see  you \"at eight\"")
                == .conversation(.say("m-3", text: "see  you \"at eight\"", clientID: nil)))
        #expect(
            try Command.parse("say \"m 3\"   I'm here ")
                == .conversation(.say("m 3", text: "I'm here", clientID: nil)), "a quoted id, then the text")
        #expect(
            try Command.parse("say m-3 \u{301}e") == .conversation(.say("m-3", text: "\u{301}e", clientID: nil)),
            "a combining mark after the space is the text's first scalar")
        #expect(try Command.parse("say --id k m-3 hi") == .conversation(.say("m-3", text: "hi", clientID: "k")))
        #expect(try Command.parse("inbox") == .conversation(.inbox))
        for bad in ["chat", "chat a b", "say m-3", "say --id", "inbox x"] {
            #expect(throws: CommandError.self, "\(bad)") { try Command.parse(bad) }
        }
    }
}
