import Foundation
import SwipeCLI
import SwipeCore
import SwipeSession
import SwipeStore
import Testing

/// A decision that is stored is told as stored, even when fetching the card
/// that takes its place fails just after (a lost connection mid-refill on
/// PostgreSQL): `ok` with the decision and its match, a note that `reload`
/// tries again; never "failed" for a like that was kept.
@Suite struct ReplRefillFailureTests {
    /// An in-memory feed that fails every fetch while `broken` is set.
    final class Switch: @unchecked Sendable { var broken = false }

    struct BreakableFeed: ProfileFeed {
        var inner: InMemoryFeed
        let power: Switch

        func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
            if power.broken { throw TestLedger.Failure() }
            return try inner.nextProfiles(limit: limit, excluding: excluding)
        }

        mutating func deckDidRecord(_ action: DeckAction) { inner.deckDidRecord(action) }
    }

    @Test func aLikeStoredBeforeTheRefillFailsIsToldAsStoredWithItsMatch() throws {
        let power = Switch()
        let ledger = TestLedger(likedBy: ["m-1"])
        try ledger.hold(Fixture.profiles)
        var session = try ReplSession(
            feed: BreakableFeed(inner: InMemoryFeed(Fixture.profiles), power: power), ledger: ledger.scope,
            format: .json)
        _ = session.answer("deck")
        power.broken = true
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(session.answer("like").utf8)) as? [String: Any])
        #expect(answer["ok"] as? Bool == true)
        #expect((answer["decision"] as? [String: Any])?["profile"] as? String == "m-1")
        #expect(answer["match"] as? Bool == true)
        #expect(answer["note"] as? String == "the next card could not be loaded just now; `reload` tries again")
        #expect(ledger.entries.map(\.profileID) == ["m-1"], "stored once")
        #expect(!String(describing: answer).contains("fake"), "the store's own words stay out of the answer")
        // The parked slot fills once the feed answers again; the like is not repeated.
        power.broken = false
        let reload = try #require(
            try JSONSerialization.jsonObject(with: Data(session.answer("reload").utf8)) as? [String: Any])
        #expect(reload["ok"] as? Bool == true)
        let cards = try #require(reload["cards"] as? [[String: Any]])
        #expect(cards.compactMap { $0["profile"] as? String }.count == 4)
        #expect(ledger.entries.count == 1)
    }

    @Test func aFailureBeforeAnythingIsStoredIsStillAFailure() throws {
        let power = Switch()
        let ledger = TestLedger()
        try ledger.hold(Fixture.profiles)
        var session = try ReplSession(
            feed: BreakableFeed(inner: InMemoryFeed(Fixture.profiles), power: power), ledger: ledger.scope,
            format: .json)
        _ = session.answer("deck")
        ledger.failNextWrite = true
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(session.answer("like").utf8)) as? [String: Any])
        #expect(answer["ok"] as? Bool == false)
        #expect(ledger.entries.isEmpty)
    }
}
