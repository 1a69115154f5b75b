import Foundation
import SwipeCore
import SwipeTestSupport
import Synchronization
import Testing

@testable import SwipeStore

/// `ViewerScope` hands up one `StoreEvent` per stored write that others must
/// hear of, on either backend: the sequence below, worked by hand, is what
/// a viewer's writes tell, in order, and nothing else (a hate, a like that
/// made no match, a retried message, an unblock and reads tell nothing).
@Suite struct StoreEventTests {
    let stores = TestStores("swipe-store-events")

    /// Collects what a scope tells.
    final class Told: Sendable {
        let events = Mutex<[StoreEvent]>([])
        func append(_ event: StoreEvent) { events.withLock { $0.append(event) } }
        var all: [StoreEvent] { events.withLock { $0 } }
    }

    func decision(_ id: String, _ decision: Decision) -> DeckDecision {
        DeckDecision(profile: Profile(id: id, name: "Name " + id, age: 30), decision: decision, via: .button)
    }

    @Test(arguments: TestBackend.all) func eachStoredWriteTellsItsEventOnce(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy", "di", "ed"])
        // Everyone but cy has liked ana already; cy never decides.
        for other in ["bo", "di", "ed"] {
            _ = try store.record(viewer: other, profile: "ana", decision: .like, via: .import)
        }
        let told = Told()
        let ana = ViewerScope(viewer: "ana", access: DirectAccess(store), name: "Ana") { told.append($0) }

        let matched = try ana.record(decision("bo", .like))
        _ = try ana.record(decision("cy", .like))  // no match: cy never liked ana
        let matchedDi = try ana.record(decision("di", .like))
        _ = try ana.record(decision("ed", .hate))  // a missed match tells no one
        let first = try ana.send(to: "bo", text: "hi", clientID: "c1")
        #expect(try ana.send(to: "bo", text: "hi", clientID: "c1").isRetry)
        #expect(try ana.undoEndingMatch(decision("di", .like)))
        _ = try ana.block("cy")
        try ana.unblock("cy")
        try ana.unmatch("bo")
        _ = try ana.matches()

        #expect(
            told.all == [
                .matched(MatchNotice(recipient: "bo", liker: "ana", likerName: "Ana", matchedAt: matched.decidedAt)),
                .matched(MatchNotice(recipient: "di", liker: "ana", likerName: "Ana", matchedAt: matchedDi.decidedAt)),
                .messageSent(first.message, senderName: "Ana"),
                .unmatched(other: "di"),
                .blocked(other: "cy"),
                .unmatched(other: "bo"),
            ])
    }

    @Test(arguments: TestBackend.all) func aReportBlocksAndAnErasureTellsWhoseMatchEnded(_ backend: TestBackend) throws
    {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy", "di"])
        for other in ["bo", "di"] {
            _ = try store.record(viewer: other, profile: "ana", decision: .like, via: .import)
        }
        let told = Told()
        let ana = ViewerScope(viewer: "ana", access: DirectAccess(store), name: "Ana") { told.append($0) }
        _ = try ana.record(decision("bo", .like))
        _ = try ana.record(decision("di", .like))
        _ = try ana.report("cy", reason: "spam")
        let erasure = try ana.erase()
        #expect(erasure.unmatched == ["bo", "di"])
        #expect(Array(told.all.dropFirst(2)) == [.blocked(other: "cy"), .erased(erasure)])
    }

    /// A scope with no one to tell (the REPL's) writes the same and tells nothing.
    @Test func aScopeWithoutAListenerStillWrites() throws {
        let store = try stores.store(.sqlite, profiles: ["ana", "bo"])
        _ = try store.record(viewer: "bo", profile: "ana", decision: .like, via: .import)
        let ana = ViewerScope(store: store, viewer: "ana")
        #expect(try ana.record(decision("bo", .like)).match?.profile == "bo")
    }
}
