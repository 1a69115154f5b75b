import Foundation
import PropertyBased
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@_spi(Benchmarks) @testable import SwipeSQLite
@testable import SwipeStore

/// The feed against an independent brute-force model of README "Discovery":
/// random profiles (some without a location or a gender, some exactly at a
/// distance or age limit), preferences, decisions, likes, undos and blocks;
/// the model walks every profile and applies each rule literally, and the
/// SQL feed must deal exactly the same sequence, card by card.
@Suite struct DiscoveryModelTests {
    /// The model (shared with the PostgreSQL feed's test): scenarios and the sequence they must deal.
    typealias Random = DiscoveryModel.Random
    typealias Scenario = DiscoveryModel.Scenario
    static func distance(_ a: Location, _ b: Location) -> Double { DiscoveryModel.distance(a, b) }
    static func scenario(seed: Int) -> Scenario { DiscoveryModel.scenario(seed: seed) }
    static func expectedFeed(_ s: Scenario, viewer v: Int) -> [String] { DiscoveryModel.expectedFeed(s, viewer: v) }

    static func load(_ s: Scenario, into store: any SwipeDatabase) throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for p in s.people { try store.upsert(p.profile) }
        for choice in s.decisions {
            let (viewer, profile, decision, time, undone) = (
                choice.viewer, choice.profile, choice.decision, choice.time, choice.undone
            )
            let at = start.addingTimeInterval(Double(time))
            _ = try store.record(
                viewer: s.people[viewer].id, profile: s.people[profile].id, decision: decision, via: .import, at: at)
            if undone { _ = try store.undo(viewer: s.people[viewer].id, profile: s.people[profile].id, at: at) }
        }
        for (a, b) in s.blocks { try store.block(viewer: s.people[a].id, profile: s.people[b].id) }
    }

    static let start = Date(timeIntervalSince1970: 1_795_000_000)
    /// The moment of every fetch and of the decisions made while dealing.
    static let now = start.addingTimeInterval(100_000)

    /// Each seed gets a database of its own: the feed deals from all of it,
    /// likers first, then ranked (README "Ranking"), as the model says.
    /// With `fitted`, the ranking's model is refitted after the load
    /// (README "Ranking") and the model ranks by the fit the store returned.
    static func check(
        seed: Int, on backend: TestBackend, in stores: TestStores, elsewhere: Bool = false, fitted: Bool = false
    ) throws {
        var s = scenario(seed: seed)
        let store = try stores.open(backend, "model\(seed)-\(UUID().uuidString)")  // shrinking runs a seed again
        try load(s, into: store)
        var state = DiscoveryModel.RankState(s, start: start)
        if fitted { state.fit = try refit(store, s) }
        for v in s.people.indices {
            let viewer = s.people[v].id
            let expected = DiscoveryModel.expectedRankedFeed(s, viewer: v, state: state, now: now)
            // Exactly the eligible, whatever the order.
            #expect(Set(expected) == Set(expectedFeed(s, viewer: v)), "seed \(seed) viewer u\(v)")
            // On SQLite, the cells of a box, or (cellLimit 0) the walk by key for every box.
            func feed(records: Bool) throws -> any ProfileFeed {
                try rankedFeed(
                    store, viewer: viewer, cellLimit: v % 2 == 0 ? nil : 0, records: records,
                    model: fitted ? DiscoveryModel.fittedModel : .standard, clock: { now })
            }
            // All at once, looking only…
            #expect(
                try feed(records: false).nextProfiles(limit: 1000, excluding: []).map(\.id) == expected,
                "seed \(seed) viewer u\(v)")
            // …and card by card, as a deck of four that keeps its cards deals them.
            let dealing = try feed(records: true)
            let (dealt, modelDealt) = try DiscoveryModel.cardByCard(
                &s, viewer: v, state: &state, now: now, start: start,
                fetch: { try dealing.nextProfiles(limit: 1, excluding: $0).first?.id },
                hate: { _ = try store.record(viewer: viewer, profile: $0, decision: .hate, via: .drag, at: now) },
                elsewhere: elsewhere
                    ? { _ = try store.record(viewer: $0, profile: $1, decision: .like, via: .import, at: now) } : nil)
            #expect(dealt == modelDealt, "seed \(seed) viewer u\(v), card by card")
            #expect(Set(dealt) == Set(expected), "seed \(seed) viewer u\(v): every eligible one, once")
        }
    }

    /// Refits `store` (loaded with `s`) and returns the fit per person of
    /// `s`, as the model reads it; nil when there was nothing to fit.
    static func refit(_ store: any SwipeDatabase, _ s: Scenario) throws -> (
        mean: Double, appeal: [Double?], generosity: [Double?]
    )? {
        let fit = try store.refitRanking(ridge: Ranking.fitRidge, limit: Ranking.fitDecisions, at: start)
        guard fit.decisions > 0 else { return nil }
        let sql = try #require(store as? any SQLDatabase)
        let keys = try s.people.map { try #require(try sql.profileKey(id: $0.id)) }
        return (fit.mean, keys.map { fit.appeal[$0] }, keys.map { fit.generosity[$0] })
    }

    /// The same, with the ranking's model fitted after the load: the feed
    /// ranks by each side's fitted appeal and generosity (README "Ranking").
    @Test(arguments: TestBackend.all) func fittedFeedDealsExactlyTheModelsSequence(_ backend: TestBackend) async {
        let stores = TestStores()
        await propertyCheck(count: backend == .sqlite ? 40 : 15, input: Gen.int(in: 0...1_000_000)) { seed in
            try Self.check(seed: seed, on: backend, in: stores, fitted: true)
        }
    }

    /// Both backends store the same fit of the same ledger, bit for bit:
    /// the same decisions read in the same order by one Swift fit. The stored
    /// rows read back as returned (the feed reads those).
    @Test func refitIsTheSameOnEveryBackend() throws {
        let stores = TestStores()
        for seed in [3, 17, 29, 101] {
            let s = Self.scenario(seed: seed)
            var fits: [[String: [Double]]] = []
            for backend in TestBackend.all {
                let store = try stores.open(backend, "fit\(seed)-\(UUID().uuidString)")
                try Self.load(s, into: store)
                let fit = try store.refitRanking(ridge: 0.5, limit: Ranking.fitDecisions, at: Self.start)
                var byID: [String: [Double]] = ["": [fit.mean, Double(fit.decisions)]]
                let sql = try #require(store as? any SQLDatabase)
                for person in s.people {
                    let key = try #require(try sql.profileKey(id: person.id))
                    let stats = try #require(try sql.rankStats(id: person.id))
                    byID[person.id] = [fit.appeal[key] ?? 0, fit.generosity[key] ?? 0]
                    // A row holds both sides, 0 for the one the fit did not see.
                    #expect((stats.appeal ?? 0) == (fit.appeal[key] ?? 0))
                    #expect((stats.generosity ?? 0) == (fit.generosity[key] ?? 0))
                    #expect(stats.fitMean == (fit.decisions > 0 ? fit.mean : nil))
                }
                #expect(try !store.rankingFitIsStale(every: 1))
                fits.append(byID)
            }
            #expect(fits.allSatisfy { $0 == fits[0] }, "seed \(seed)")
        }
    }

    /// Fewer seeds on PostgreSQL, where each is a CREATE DATABASE.
    @Test(arguments: TestBackend.all) func feedDealsExactlyTheModelsSequence(_ backend: TestBackend) async {
        let stores = TestStores()
        await propertyCheck(count: backend == .sqlite ? 60 : 20, input: Gen.int(in: 0...1_000_000)) { seed in
            try Self.check(seed: seed, on: backend, in: stores)
        }
    }

    /// The batch rule (README "Ranking") while others decide between cards:
    /// a like of a card further down the ranking does not move it up until
    /// the ranking is used up; a new liker comes next, and after it the
    /// ranking is made afresh.
    @Test(arguments: TestBackend.all) func batchHoldsWhileOthersDecide(_ backend: TestBackend) async {
        let stores = TestStores()
        await propertyCheck(count: backend == .sqlite ? 40 : 15, input: Gen.int(in: 0...1_000_000)) { seed in
            try Self.check(seed: seed, on: backend, in: stores, elsewhere: true)
        }
    }

    /// A profile exactly at the limit (the coarse distance, README
    /// "Discovery") is in, and so is one 11 m further in the same cell (the
    /// limit cannot tell them apart); one two rows of cells further north
    /// (2.5 km) is out.
    @Test(arguments: TestBackend.all) func distanceLimitIsInclusive(_ backend: TestBackend) throws {
        let stores = TestStores()
        let store = try stores.open(backend)
        let here = Location(lat: 52.52, lon: 13.405), there = Location(lat: 52.60, lon: 13.50)
        let exact = DiscoveryModel.coarseDistance(here, there)
        try store.upsert(Profile(id: "v", name: "V", age: 30, location: here, preferences: Preferences(maxKm: exact)))
        try store.upsert(Profile(id: "at", name: "At", age: 30, location: there))
        try store.upsert(Profile(id: "cellmate", name: "C", age: 30, location: Location(lat: 52.6001, lon: 13.50)))
        try store.upsert(Profile(id: "beyond", name: "B", age: 30, location: Location(lat: 52.63, lon: 13.50)))
        try store.upsert(Profile(id: "nowhere", name: "N", age: 30))
        #expect(
            try store.feed(viewer: "v").nextProfiles(limit: 9, excluding: []).map(\.id).sorted() == ["at", "cellmate"])
        withExtendedLifetime(stores) {}
    }
}
