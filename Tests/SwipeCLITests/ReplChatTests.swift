import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI

/// The REPL's conversations (Documentation/REPL.md, "Conversations") in one session over a SQLite
/// store: the chat prompt, lines sent, `/back`, a chat that closes when the
/// match ends elsewhere, Tab completion of match ids, parsing.
@Suite final class ReplChatTests {
    let temporary = TemporaryFolder("swipe-repl-chat")
    var path: String { temporary.path + "/chat.sqlite" }

    /// v matches a and b; c only likes v.
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["v", "a", "b", "c"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        for other in ["a", "b"] {
            _ = try store.record(viewer: "v", profile: other, decision: .like, via: .drag)
            _ = try store.record(viewer: other, profile: "v", decision: .like, via: .drag)
        }
        _ = try store.record(viewer: "c", profile: "v", decision: .like, via: .drag)
    }

    func session(_ format: ReplFormat = .text(ReplStyle(color: false))) throws -> ReplSession {
        let store = try SQLiteStore(path: path)
        var session = try ReplSession(
            feed: try SQLiteFeed(store: store, viewer: "v"), ledger: ViewerScope(store: store, viewer: "v"),
            format: format)
        session.layout = ReplLayout(pictures: false)
        return session
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

    @Test func theCommandsParse() throws {
        #expect(try ReplInput.parse("chat m-3") == .conversation(.chat("m-3")))
        #expect(
            try ReplInput.parse("say m-3 see  you \"at eight\"")
                == .conversation(.say("m-3", text: "see you at eight", clientID: nil)))
        #expect(try ReplInput.parse("say --id k m-3 hi") == .conversation(.say("m-3", text: "hi", clientID: "k")))
        #expect(try ReplInput.parse("inbox") == .conversation(.inbox))
        for bad in ["chat", "chat a b", "say m-3", "say --id", "inbox x"] {
            #expect(throws: ReplInputError.self, "\(bad)") { try ReplInput.parse(bad) }
        }
    }
}
