import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The batch rule (README "Ranking") through a memory carried across feeds,
/// as `swipe serve` makes a feed per fetch on a borrowed connection.
@Suite struct FeedBatchTests {
    let stores = TestStores()

    /// None of them acted, has a place or an interest, so the first ranking
    /// is the viewer's tie-hash order. Then the ranking's last card acts
    /// (a fresh ranking puts it first) and its second is decided from
    /// another deck: the next feed with the same memory passes over the
    /// decided one and keeps the ranking's order; without it, a fresh ranking.
    @Test(arguments: TestBackend.all) func aFeedPerFetchDealsTheBatchOnThroughItsMemory(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["me", "a", "b", "c", "d"])
        let order = DiscoveryModel.tieOrder("me", ["a", "b", "c", "d"])
        let memory = Ranking.FeedMemory()
        func next(_ excluding: Set<String>) throws -> [String] {
            try store.feed(viewer: "me", memory: memory).nextProfiles(limit: 1, excluding: excluding).map(\.id)
        }
        #expect(try next([]) == [order[0]])
        _ = try store.record(viewer: order[3], profile: "me", decision: .hate, via: .drag)
        _ = try store.record(viewer: "me", profile: order[1], decision: .hate, via: .drag)
        let fresh = try rankedFeed(store, viewer: "me", records: false, clock: Date.init)
        #expect(try fresh.nextProfiles(limit: 1, excluding: [order[0]]).map(\.id) == [order[3]])
        #expect(try next([order[0]]) == [order[2]])
        #expect(try next([order[0], order[2]]) == [order[3]])
        #expect(try next([order[0], order[2], order[3]]) == [])
        // Each card dealt was counted once (when its feed went away).
        let reader = try #require(store as? any DiscoveryReader)
        for id in [order[0], order[2], order[3]] {
            #expect(try reader.rankStats(id: id)?.dealtTotal == 1, "\(id)")
        }
        #expect(try reader.rankStats(id: order[1])?.dealtTotal == 0)
    }

    /// A queued card is checked as stored now, both ways, before it is
    /// dealt (on PostgreSQL that check rides with the viewer's read): the
    /// batch's next card, now seeking people of 40 to 50, is passed over;
    /// back as it was, a fresh ranking deals it.
    @Test(arguments: TestBackend.all) func aQueuedCardIsCheckedAsItIsNow(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["me", "a", "b", "c"])
        let order = DiscoveryModel.tieOrder("me", ["a", "b", "c"])
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 1, excluding: []).map(\.id) == [order[0]])
        try store.upsert(Profile(id: order[1], name: "Name", age: 30, preferences: Preferences(ageMin: 40, ageMax: 50)))
        #expect(try feed.nextProfiles(limit: 1, excluding: [order[0]]).map(\.id) == [order[2]])
        try store.upsert(Profile(id: order[1], name: "Name", age: 30))
        #expect(try feed.nextProfiles(limit: 1, excluding: [order[0], order[2]]).map(\.id) == [order[1]])
        withExtendedLifetime(stores) {}
    }
}
