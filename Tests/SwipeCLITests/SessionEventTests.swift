import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// An open session hears what happens to its viewer elsewhere (`listen`):
/// matches and messages made by another process over the same store, each
/// told once, never what the session did itself, in the open chat as chat
/// lines (and read), at the deck with the command that answers them.
@Suite final class SessionEventTests {
    let temporary = TemporaryFolder("swipe-session-events")
    var path: String { temporary.path + "/events.sqlite" }

    /// v matches a; b and c like v, who has not decided them.
    init() throws {
        let store = try SQLiteStore(path: path)
        try store.setRule("messages-per-minute", "1000000")
        for id in ["v", "a", "b", "c"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag)
        _ = try store.record(viewer: "a", profile: "v", decision: .like, via: .drag)
        _ = try store.record(viewer: "b", profile: "v", decision: .like, via: .drag)
        _ = try store.record(viewer: "c", profile: "v", decision: .like, via: .drag)
    }

    func session() throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: "v", format: .text(.plain), pictures: false)
    }

    func send(_ from: String, _ to: String, _ text: String) throws {
        _ = try SQLiteStore(path: path).send(
            MessageSend(viewer: from, profile: to, text: text, clientID: UUID().uuidString))
    }

    @Test func whatStoodBeforeTheFirstListenIsNotNews() throws {
        try send("a", "v", "sent before the session listened")
        var session = try session()
        #expect(session.listen().isEmpty)
        #expect(session.listen().isEmpty, "nothing happened in between")
    }

    @Test func aMessageAndAMatchMadeElsewhereAreToldOnceEach() throws {
        var session = try session()
        _ = session.listen()
        try send("a", "v", "hello from the page")
        _ = try SQLiteStore(path: path).record(viewer: "v", profile: "b", decision: .like, via: .drag)
        let events = session.listen()
        #expect(events.count == 2)
        #expect(events.contains(.matched(ChatPartner(id: "b", name: "Name b"), at: try matchedAt("b"))))
        let message = events.compactMap { event -> (Message, Bool)? in
            if case .message(let message, _, let open) = event { (message, open) } else { nil }
        }
        #expect(message.map(\.0.text) == ["hello from the page"] && message.map(\.1) == [false])
        #expect(session.listen().isEmpty, "each is told once")
        #expect(try unread("a") == 1, "a message heard at the deck stays unread until the chat is opened")
    }

    @Test func inTheOpenChatEveryNewMessageIsToldInOrderAndRead() throws {
        var session = try session()
        _ = session.listen()
        var out = ""
        #expect(session.run("chat a", into: &out))
        try send("a", "v", "one")
        try send("a", "v", "two")
        try send("v", "a", "three, from v's phone")
        let texts = session.listen().compactMap { event -> String? in
            if case .message(let message, _, true) = event { message.text } else { nil }
        }
        #expect(texts == ["one", "two", "three, from v's phone"])
        #expect(try unread("a") == 0, "what the open chat showed is read")
    }

    @Test func whatTheSessionDidItselfIsNeverToldBack() throws {
        var session = try session()
        _ = session.listen()
        var out = ""
        #expect(session.run("like b", into: &out) && out.contains("It's a match"))
        #expect(session.run("say a I'm here", into: &out))
        #expect(session.run("chat a", into: &out))
        #expect(session.run("and here", into: &out))
        #expect(session.run("/back", into: &out))
        #expect(session.run("unmatch a", into: &out))
        #expect(session.listen().isEmpty, "its own match, messages and unmatch: \(session.listen())")
    }

    @Test func aMatchEndedElsewhereIsToldWithoutSayingHow() throws {
        var session = try session()
        _ = session.listen()
        _ = try SQLiteStore(path: path).block(viewer: "a", profile: "v")
        #expect(session.listen() == [.unmatched(ChatPartner(id: "a", name: "Name a"))])
    }

    @Test func theRenderedLinesCarryNoControlCharacters() {
        let partner = ChatPartner(id: "a\u{1B}[2J", name: "Eve\u{7}\u{1B}]0;title\u{7}")
        let message = Message(
            seq: 1, sender: "a", recipient: "v", text: "hi\u{1B}[31m red\r\nline", clientID: "x",
            sentAt: "2026-11-27T00:00:00.000Z")
        for event in [
            SessionEvent.matched(partner, at: "2026-11-27T00:00:00.000Z"),
            .message(message, partner: partner, inOpenChat: true),
            .message(message, partner: partner, inOpenChat: false),
            .unmatched(partner),
        ] {
            let line = event.textLine(viewer: "v", style: .plain)
            #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line)")
        }
    }

    private func matchedAt(_ id: String) throws -> String {
        try SQLiteStore(path: path).inbox(viewer: "v").first { $0.profile == id }?.matchedAt ?? ""
    }

    private func unread(_ id: String) throws -> Int {
        try SQLiteStore(path: path).inbox(viewer: "v").first { $0.profile == id }?.unread ?? -1
    }
}
