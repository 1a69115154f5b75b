import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeSQLite
@testable import SwipeStore

/// Conversations (Documentation/REPL.md, "Conversations") on every backend, with times worked by hand:
/// who may write, the store's order, read state, exactly-once sends, and
/// each rule's refusal naming the rule.
@Suite struct ConversationTests {
    let stores = TestStores()
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40.000Z
    static func at(hours: Double) -> Date { t0.addingTimeInterval(hours * 3600) }

    /// Profiles f1, f2 (gender f), m1, m2 (gender m), x (no gender).
    func store(_ backend: TestBackend, name: String = "test") throws -> any SwipeDatabase {
        let store = try stores.open(backend, name)
        for (id, gender) in [("f1", "f"), ("f2", " F "), ("m1", "m"), ("m2", "m"), ("x", nil)] as [(String, String?)] {
            try store.upsert(Profile(id: id, name: "Name " + id, age: 30, gender: gender))
        }
        return store
    }

    func match(_ store: any SwipeDatabase, _ a: String, _ b: String, hours: Double = 0) throws {
        _ = try store.record(viewer: a, profile: b, decision: .like, via: .drag, at: Self.at(hours: hours))
        #expect(
            try store.record(viewer: b, profile: a, decision: .like, via: .drag, at: Self.at(hours: hours)).match != nil
        )
    }

    func send(
        _ store: any SwipeDatabase, _ from: String, _ to: String, _ text: String, id: String? = nil,
        hours: Double = 1
    ) throws -> SentMessage {
        try store.send(
            MessageSend(
                viewer: from, profile: to, text: text, clientID: id ?? UUID().uuidString,
                at: Self.at(hours: hours)))
    }

    func refusal(_ body: () throws -> Void) -> MessageRefusal? {
        do {
            try body()
        } catch StoreError.messageRefused(let refusal) {
            return refusal
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test(arguments: TestBackend.all) func aConversationIsOrderedByTheStoreAndReadingMarksRead(_ backend: TestBackend)
        throws
    {
        let store = try store(backend)
        try match(store, "f1", "m1")
        #expect(
            try send(store, "f1", "m1", "  hi there \n", id: "c1", hours: 1).message
                == Message(
                    seq: 1, sender: "f1", recipient: "m1", text: "hi there", clientID: "c1",
                    sentAt: "2026-11-18T12:06:40.000Z"))
        _ = try send(store, "m1", "f1", "hello", hours: 2)
        // An earlier clock does not reorder: the store's order is the order of sends.
        _ = try send(store, "f1", "m1", "how are you?", hours: 1.5)
        let inbox = try store.inbox(viewer: "m1", at: Self.at(hours: 3))
        #expect(inbox.count == 1 && inbox[0].profile == "f1" && inbox[0].unread == 2 && inbox[0].last?.seq == 3)
        #expect(try store.inbox(viewer: "f1", at: Self.at(hours: 3))[0].unread == 1)
        let read = try store.messages(MessageQuery(viewer: "m1", profile: "f1", at: Self.at(hours: 3)))
        #expect(read.map(\.seq) == [1, 2, 3])
        #expect(read.map(\.sender) == ["f1", "m1", "f1"])
        #expect(read.map(\.text) == ["hi there", "hello", "how are you?"])
        // What m1 received is read now; what m1 sent is f1's to read.
        #expect(read.map(\.readAt) == ["2026-11-18T14:06:40.000Z", nil, "2026-11-18T14:06:40.000Z"])
        #expect(try store.inbox(viewer: "m1")[0].unread == 0)
        #expect(try store.inbox(viewer: "f1")[0].unread == 1)
        // The last N, in order; after a place in the conversation.
        #expect(
            try store.messages(MessageQuery(viewer: "f1", profile: "m1", last: 2, markRead: false)).map(\.seq) == [
                2, 3,
            ])
        #expect(
            try store.messages(MessageQuery(viewer: "f1", profile: "m1", afterSeq: 1, markRead: false)).map(\.seq) == [
                2, 3,
            ])
        #expect(try store.inbox(viewer: "f1")[0].unread == 1, "a peek marks nothing read")
    }

    @Test(arguments: TestBackend.all) func theInboxListsNewestActivityFirst(_ backend: TestBackend) throws {
        let store = try store(backend)
        try match(store, "f1", "m1", hours: 0)
        try match(store, "f1", "m2", hours: 1)
        try match(store, "f1", "x", hours: 2)
        _ = try send(store, "m1", "f1", "first", hours: 3)
        let inbox = try store.inbox(viewer: "f1", at: Self.at(hours: 4))
        #expect(inbox.map(\.profile) == ["m1", "x", "m2"])
        #expect(inbox.map(\.unread) == [1, 0, 0])
        #expect(inbox[0].last?.text == "first" && inbox[1].last == nil)
        #expect(inbox.map(\.name) == ["Name m1", "Name x", "Name m2"])
    }

    @Test(arguments: TestBackend.all) func onlyAStandingMatchConverses(_ backend: TestBackend) throws {
        let store = try store(backend)
        #expect(refusal { _ = try send(store, "f1", "m1", "hi") } == .notMatched(profile: "m1"))
        _ = try store.record(viewer: "f1", profile: "m1", decision: .like, via: .drag)
        #expect(
            refusal { _ = try send(store, "f1", "m1", "hi") } == .notMatched(profile: "m1"),
            "a one-sided like is no match")
        #expect(throws: StoreError.selfAction("f1", action: "message")) { _ = try send(store, "f1", "f1", "me") }
        #expect(throws: StoreError.unknownProfile("nobody")) { _ = try send(store, "f1", "nobody", "hi") }

        // An unmatch ends it for both, for good.
        try match(store, "f1", "m2")
        _ = try send(store, "f1", "m2", "hi")
        try store.unmatch(viewer: "m2", profile: "f1", at: Self.at(hours: 2))
        #expect(
            refusal { _ = try send(store, "f1", "m2", "still there?") }
                == .ended(profile: "m2", at: "2026-11-18T13:06:40.000Z"))
        #expect(
            refusal { _ = try send(store, "m2", "f1", "bye") } == .ended(profile: "f1", at: "2026-11-18T13:06:40.000Z"))
        #expect(refusal { _ = try store.messages(MessageQuery(viewer: "f1", profile: "m2")) } != nil)
        #expect(try store.inbox(viewer: "f1").isEmpty)

        // A block too, either way.
        try match(store, "f2", "x")
        _ = try send(store, "x", "f2", "hi")
        try store.block(viewer: "x", profile: "f2", at: Self.at(hours: 3))
        #expect(
            refusal { _ = try send(store, "f2", "x", "why?") } == .ended(profile: "x", at: "2026-11-18T14:06:40.000Z"))
        #expect(refusal { _ = try send(store, "x", "f2", "hi") } != nil)
        try store.unblock(viewer: "x", profile: "f2")
        #expect(refusal { _ = try send(store, "x", "f2", "hi again") } != nil, "an ended match stays ended")
    }

    /// Undoing a like that made a match deletes a match nobody wrote in, but
    /// ends (and keeps) one whose conversation began.
    @Test(arguments: TestBackend.all) func anUndoAfterTheFirstMessageEndsTheConversation(_ backend: TestBackend) throws
    {
        let store = try store(backend)
        try match(store, "f1", "m1")
        _ = try send(store, "m1", "f1", "hi")
        #expect(try store.undo(viewer: "f1", profile: "m1", at: Self.at(hours: 5)).unmatched)
        #expect(
            refusal { _ = try send(store, "m1", "f1", "hello?") }
                == .ended(profile: "f1", at: "2026-11-18T16:06:40.000Z"))
        _ = try store.record(viewer: "f1", profile: "m1", decision: .like, via: .drag)
        #expect(try store.matches(viewer: "f1").isEmpty, "the pair never matches again")

        try match(store, "f2", "m2")
        #expect(try store.undo(viewer: "f2", profile: "m2").unmatched)
        #expect(refusal { _ = try send(store, "m2", "f2", "hi") } == .notMatched(profile: "f2"))
        #expect(
            try store.record(viewer: "f2", profile: "m2", decision: .like, via: .drag).match != nil,
            "no message: it can match again")
    }

    @Test(arguments: TestBackend.all) func aMessageHoldsAtMost2000Characters(_ backend: TestBackend) throws {
        let store = try store(backend)
        try match(store, "f1", "m1")
        // Code points, as SQL's length counts them: é is one, 👩‍👩‍👧 is five.
        let full = String(repeating: "é", count: 1995) + "👩‍👩‍👧"
        #expect(try send(store, "f1", "m1", full).message.text == full)
        #expect(refusal { _ = try send(store, "f1", "m1", full + "!") } == .tooLong(length: 2001))
        #expect(refusal { _ = try send(store, "f1", "m1", " \n\t ") } == .empty)
        #expect(refusal { _ = try send(store, "f1", "m1", "a\0b") } == .holdsNUL)
        #expect(refusal { _ = try send(store, "f1", "m1", "ok", id: "") } == .badClientID(""))
        #expect(refusal { _ = try send(store, "f1", "m1", "ok", id: "a\u{1B}b") } == .badClientID("a\u{1B}b"))
        #expect(String(describing: StoreError.messageRefused(.tooLong(length: 2001))).contains("2000"))
        #expect(try store.messages(MessageQuery(viewer: "m1", profile: "f1")).count == 1, "refusals stored nothing")
    }

    /// A retry with the same client id returns the stored message, never a
    /// second row: at once, later, and from a connection opened anew.
    @Test(arguments: TestBackend.all) func aRetryWithTheSameClientIDStoresNothingTwice(_ backend: TestBackend) throws {
        let store = try store(backend)
        try match(store, "f1", "m1")
        let first = try send(store, "f1", "m1", "hi", id: "c-1", hours: 1)
        #expect(!first.isRetry && first.message.seq == 1)
        let again = try send(store, "f1", "m1", "hi", id: "c-1", hours: 2)
        #expect(again.isRetry && again.message == first.message, "the stored message, its time included")
        _ = try send(store, "m1", "f1", "c-1 is mine too", id: "c-1", hours: 3)  // client ids are per sender
        let reopened = try stores.open(backend)
        let retried = try reopened.send(
            MessageSend(viewer: "f1", profile: "m1", text: "hi", clientID: "c-1", at: Self.at(hours: 4)))
        #expect(retried.isRetry && retried.message == first.message)
        #expect(try reopened.messages(MessageQuery(viewer: "f1", profile: "m1", markRead: false)).map(\.seq) == [1, 2])
        // The same id with another text or to another person is a client's mistake, refused.
        #expect(refusal { _ = try send(store, "f1", "m1", "hello", id: "c-1") } == .clientIDReused("c-1"))
        try match(store, "f1", "m2")
        #expect(refusal { _ = try send(store, "f1", "m2", "hi", id: "c-1") } == .clientIDReused("c-1"))
        // A retry is answered even after the conversation ended: it was acknowledged.
        try store.unmatch(viewer: "m1", profile: "f1")
        #expect(try send(store, "f1", "m1", "hi", id: "c-1").isRetry)
    }

    @Test(arguments: TestBackend.all) func firstMoveLetsTheRulesGenderWriteFirst(_ backend: TestBackend) throws {
        let store = try store(backend)
        #expect(try store.setRule("first-move", "F").firstMove == "f")
        try match(store, "f1", "m1")
        try match(store, "f2", "m2")
        try match(store, "m1", "m2")
        try match(store, "f1", "x")
        #expect(refusal { _ = try send(store, "m1", "f1", "hi") } == .firstMove(gender: "f"))
        #expect(String(describing: StoreError.messageRefused(.firstMove(gender: "f"))).contains("rule first-move"))
        _ = try send(store, "f1", "m1", "hi")
        _ = try send(store, "m1", "f1", "hi back")  // the first move is made: anyone now
        // " F " is gender f too, compared trimmed and lower-cased.
        #expect(refusal { _ = try send(store, "m2", "f2", "hi") } == .firstMove(gender: "f"))
        _ = try send(store, "m1", "m2", "no f here: anyone")
        // x has no gender: in the pair only f1 is f, so f1 writes first.
        #expect(refusal { _ = try send(store, "x", "f1", "hi") } == .firstMove(gender: "f"))
        _ = try send(store, "f1", "x", "hi x")
    }

    @Test(arguments: TestBackend.all) func aMatchWithNoFirstMessageInTimeExpires(_ backend: TestBackend) throws {
        let store = try store(backend)
        try match(store, "f1", "m2", hours: 0)  // before the rule: no deadline, ever
        _ = try store.setRule("match-expiry", "24")
        try match(store, "f1", "m1", hours: 0)
        try match(store, "f2", "m1", hours: 0)
        _ = try send(store, "m1", "f2", "just in time", hours: 23.99)
        // Exactly 24 hours after the match: expired, for both.
        #expect(
            refusal { _ = try send(store, "m1", "f1", "hi", hours: 24) }
                == .expired(profile: "f1", at: "2026-11-19T11:06:40.000Z"))
        #expect(
            String(describing: StoreError.messageRefused(.expired(profile: "f1", at: "t"))).contains(
                "rule match-expiry"))
        #expect(
            refusal { _ = try send(store, "f1", "m1", "hi", hours: 30) }
                == .expired(profile: "m1", at: "2026-11-19T11:06:40.000Z"))
        // A conversation that began never expires.
        _ = try send(store, "f2", "m1", "a week later", hours: 24 * 7)
        _ = try send(store, "f1", "m2", "no deadline", hours: 24 * 7)
        let inbox = try store.inbox(viewer: "f1", at: Self.at(hours: 25))
        let expired = try #require(inbox.first { $0.profile == "m1" })
        #expect(expired.isExpired && expired.expiresAt == "2026-11-19T11:06:40.000Z")
        #expect(inbox.first { $0.profile == "m2" }.map { !$0.isExpired && $0.expiresAt == nil } == true)
        #expect(try store.inbox(viewer: "f1", at: Self.at(hours: 23)).first { $0.profile == "m1" }?.isExpired == false)
        // Turning the rule off does not lift a deadline already stamped.
        _ = try store.setRule("match-expiry", "off")
        #expect(
            refusal { _ = try send(store, "f1", "m1", "hi", hours: 30) }
                == .expired(profile: "m1", at: "2026-11-19T11:06:40.000Z"))
    }

    @Test(arguments: TestBackend.all) func firstMessagesPerDayCountsConversationsOpened(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.setRule("first-messages-per-day", "2")
        for other in ["m1", "m2", "x", "f2"] { try match(store, "f1", other) }
        _ = try send(store, "f1", "m1", "one", hours: 1)
        _ = try send(store, "f1", "m2", "two", hours: 2)
        _ = try send(store, "f1", "m1", "a reply is no first message", hours: 3)
        _ = try send(store, "x", "f1", "x opens this one: not f1's", hours: 3)
        _ = try send(store, "f1", "x", "nor is this", hours: 3)
        #expect(
            refusal { _ = try send(store, "f1", "f2", "three", hours: 4) }
                == .firstMessagesPerDay(limit: 2, freesAt: "2026-11-19T12:06:40.000Z"))
        _ = try send(store, "f1", "f2", "three, a day after the first", hours: 25)
        _ = try store.setRule("first-messages-per-day", "0")
        try match(store, "m1", "m2")
        #expect(
            refusal { _ = try send(store, "m1", "m2", "hi", hours: 30) }
                == .firstMessagesPerDay(limit: 0, freesAt: "2026-11-19T17:06:40.000Z"))
    }

    @Test(arguments: TestBackend.all) func theConversationRulesAreSetAndPrinted(_ backend: TestBackend) throws {
        let store = try store(backend)
        let rules = try store.setRule("first-messages-per-day", "5")
        _ = try store.setRule("match-expiry", "48")
        let all = try store.setRule("first-move", "f")
        #expect(rules.firstMessagesPerDay == 5)
        #expect(all == Rules(firstMove: "f", matchExpiryHours: 48, firstMessagesPerDay: 5))
        #expect(
            all.entries.suffix(5).map { "\($0.name) \($0.value)" }
                == [
                    "first-move f", "match-expiry 48", "first-messages-per-day 5", "evidence-days 90",
                    "messages-per-minute 10",
                ])
        for (name, value) in [
            ("match-expiry", "0"), ("match-expiry", "8761"), ("match-expiry", "soon"),
            ("first-messages-per-day", "-1"), ("first-move", ""), ("first-move", "f;m"),
        ] {
            #expect(throws: StoreError.self, "\(name) \(value)") { try store.setRule(name, value) }
        }
        #expect(try store.rules() == all)
        _ = try store.setRule("first-move", "anyone")
        _ = try store.setRule("match-expiry", "off")
        _ = try store.setRule("first-messages-per-day", "off")
        #expect(try store.rules() == Rules())
    }
}
