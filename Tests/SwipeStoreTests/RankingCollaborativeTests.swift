import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The collaborative signals (`Ranking.coLikes`, Documentation/Discovery.md),
/// on ledgers small enough to work by hand, read through a fake backend that
/// answers `LedgerReads` by walking a list of decisions.
@Suite struct RankingCollaborativeTests {
    /// A decision of the fake ledger: `at` orders "latest" (higher is later).
    struct Row {
        var viewer: Int, profile: Int, decision: Decision, at: Int
    }

    /// `LedgerReads` over `rows`, as the contract words it: per key in
    /// order, per kind in order, the latest `limit` (time descending, then
    /// the other side's key descending). `calls` records each read's keys.
    final class Fake: @unchecked Sendable {
        let rows: [Row]
        var calls: [[Int]] = []
        var rowsRead = 0
        init(_ rows: [Row]) { self.rows = rows }

        func read(_ keys: [Int], _ kinds: [Decision], _ limit: Int, given: Bool) -> [Ranking.Edge] {
            calls.append(keys)
            var edges: [Ranking.Edge] = []
            for key in keys {
                for kind in kinds {
                    let mine = rows.filter { (given ? $0.viewer : $0.profile) == key && $0.decision == kind }
                        .sorted {
                            $0.at != $1.at
                                ? $0.at > $1.at : (given ? $0.profile > $1.profile : $0.viewer > $1.viewer)
                        }
                        .prefix(limit)
                    edges += mine.map { Ranking.Edge(viewer: $0.viewer, profile: $0.profile, liked: kind != .hate) }
                }
            }
            rowsRead += edges.count
            return edges
        }

        var reads: Ranking.LedgerReads {
            Ranking.LedgerReads(
                given: { self.read($0, $1, $2, given: true) }, received: { self.read($0, $1, $2, given: false) })
        }
    }

    static let model = Ranking.Model(aggregation: .product, prior: .fitted, sharedWeight: 0, collaborativeWeight: 1)

    /// V (1) liked A (10) and passed on B (11). Those who liked A besides V:
    /// U1 (2, a like) and U2 (3, a superlike); U1 liked C (20) and passed on
    /// D (21), U2 liked both, and U3 (4), who liked only B, liked D. So C
    /// is co-liked 2 of 2, D 1 of 2 (U3 is no co-liker). X (30) liked V and
    /// W (40); C liked W and D passed on W: C likes V's type 1 of 1, D 0
    /// of 1. E (22) is no candidate: nothing is tallied for it.
    @Test func workedByHand() throws {
        let fake = Fake([
            Row(viewer: 1, profile: 10, decision: .like, at: 1), Row(viewer: 1, profile: 11, decision: .hate, at: 2),
            Row(viewer: 2, profile: 10, decision: .like, at: 3),
            Row(viewer: 3, profile: 10, decision: .superlike, at: 4),
            Row(viewer: 4, profile: 11, decision: .like, at: 5), Row(viewer: 2, profile: 20, decision: .like, at: 6),
            Row(viewer: 2, profile: 21, decision: .hate, at: 7), Row(viewer: 3, profile: 20, decision: .like, at: 8),
            Row(viewer: 3, profile: 21, decision: .like, at: 9), Row(viewer: 4, profile: 21, decision: .like, at: 10),
            Row(viewer: 3, profile: 22, decision: .like, at: 11), Row(viewer: 30, profile: 1, decision: .like, at: 12),
            Row(viewer: 30, profile: 40, decision: .like, at: 13),
            Row(viewer: 20, profile: 40, decision: .like, at: 14),
            Row(viewer: 21, profile: 40, decision: .hate, at: 15),
            Row(viewer: 22, profile: 40, decision: .like, at: 16),
        ])
        let coLikes = try Ranking.coLikes(viewer: 1, candidates: [20, 21], model: Self.model, reads: fake.reads)
        #expect(coLikes.coLiked == [20: Ranking.Tally(likes: 2, count: 2), 21: Ranking.Tally(likes: 1, count: 2)])
        #expect(
            coLikes.likesYourType == [20: Ranking.Tally(likes: 1, count: 1), 21: Ranking.Tally(likes: 0, count: 1)])
        // Each signal off reads and tallies nothing for it.
        let forwardOnly = try Ranking.coLikes(
            viewer: 1, candidates: [20, 21], model: Self.model.without(.likesYourType), reads: fake.reads)
        #expect(forwardOnly.coLiked == coLikes.coLiked && forwardOnly.likesYourType.isEmpty)
    }

    /// With the weight 0 nothing is read at all (a feed pays nothing for
    /// signals it does not use).
    @Test func weightZeroReadsNothing() throws {
        let fake = Fake([Row(viewer: 1, profile: 10, decision: .like, at: 1)])
        var model = Self.model
        model.collaborativeWeight = 0
        #expect(!model.readsCoLikes)
        let coLikes = try Ranking.coLikes(viewer: 1, candidates: [10], model: model, reads: fake.reads)
        #expect(coLikes == Ranking.CoLikes() && fake.calls.isEmpty)
    }

    /// A crowded ledger: V liked 60 people, each liked by 60 others who each
    /// decided 60 more. Every read names at most `neighbours` keys and the
    /// whole costs at most a bound set by the constants alone, not by the
    /// ledger's size.
    @Test func theWorkIsBounded() throws {
        var rows: [Row] = []
        var time = 0
        func add(_ v: Int, _ p: Int, _ d: Decision) {
            time += 1
            rows.append(Row(viewer: v, profile: p, decision: d, at: time))
        }
        for a in 0..<60 {
            add(1, 1_000 + a, .like)
            for u in 0..<60 {
                add(10_000 + u, 1_000 + a, .like)
                add(10_000 + u, 20_000 + a * 60 + u, u % 2 == 0 ? .like : .hate)
                add(30_000 + u, 1, .like)
                add(30_000 + u, 40_000 + a, .like)
            }
        }
        let candidates = Set((0..<3_600).map { 20_000 + $0 })
        // The shipped neighbourhood, and two others a model may set (the
        // benchmark's cross-validation tries them): the bound follows the
        // model's constants, and the ledger is crowded enough to reach it.
        var small = Self.model, large = Self.model
        (small.neighbours, small.decisionsEach) = (5, 7)
        (large.neighbours, large.decisionsEach) = (40, 50)
        for model in [Self.model, small, large] {
            let fake = Fake(rows)
            _ = try Ranking.coLikes(viewer: 1, candidates: candidates, model: model, reads: fake.reads)
            let k = model.neighbours, m = model.decisionsEach
            #expect(fake.calls.count == 6)
            #expect(fake.calls.allSatisfy { $0.count <= k })
            #expect(fake.calls.map(\.count).max() == k)
            // Two reads of one key (2 kinds × k), two of k keys (2 kinds × k
            // each), two of k keys (3 kinds × m each).
            #expect(fake.rowsRead <= 2 * 2 * k + 2 * k * 2 * k + 2 * k * 3 * m)
        }
        #expect(Self.model.neighbours == Ranking.neighbours && Self.model.decisionsEach == Ranking.decisionsEach)
    }

    /// The shift: the neighbours' rate smoothed toward the candidate's own
    /// rate with the prior's weight, in log-odds, times the model's weight.
    /// 3 likes of 4 toward 0.5 with weight 4: (3 + 2)/(4 + 4) = 5/8.
    @Test func shiftWorkedByHand() {
        let shift = Ranking.collaborativeShift(
            Ranking.Tally(likes: 3, count: 4), rate: 0.5, weight: 4, model: Self.model)
        #expect(abs(shift - log((5.0 / 8) / (3.0 / 8))) < 1e-12)
        var half = Self.model
        half.collaborativeWeight = 0.5
        let halved = Ranking.collaborativeShift(Ranking.Tally(likes: 3, count: 4), rate: 0.5, weight: 4, model: half)
        #expect(abs(halved - shift / 2) < 1e-12)
        #expect(Ranking.collaborativeShift(nil, rate: 0.5, weight: 4, model: Self.model) == 0)
    }
}

/// The collaborative signal through each backend's real feed: its reads of
/// the ledger (`LedgerReads`) decide the order of two men the rest of the
/// ranking cannot tell apart, the same way on both backends.
@Suite struct RankedFeedCollaborativeTests {
    let stores = TestStores()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// V liked A, and so did U1 and U2, who both liked `favoured` and passed
    /// on the other; U3 and U4, who did not like A, did the opposite. So C
    /// and D have 2 likes of 4 each and gave none: only the co-likers tell them apart.
    func town(_ backend: TestBackend, favoured: String) throws -> any SwipeDatabase {
        let store = try stores.store(backend)
        for id in ["v", "u1", "u2", "u3", "u4"] {
            try store.upsert(Profile(id: id, name: id, age: 30, gender: "female"))
        }
        for id in ["a", "c", "d"] { try store.upsert(Profile(id: id, name: id, age: 30, gender: "male")) }
        _ = try store.setPreferences(viewer: "v", PreferencesChange(seeking: ["male"]))
        let other = favoured == "c" ? "d" : "c"
        var at = Self.now.addingTimeInterval(-3_600)
        func decide(_ viewer: String, _ profile: String, _ decision: Decision) throws {
            at.addTimeInterval(1)
            _ = try store.record(viewer: viewer, profile: profile, decision: decision, via: .button, at: at)
        }
        for viewer in ["v", "u1", "u2"] { try decide(viewer, "a", .like) }
        for viewer in ["u1", "u2"] {
            try decide(viewer, favoured, .like)
            try decide(viewer, other, .hate)
        }
        for viewer in ["u3", "u4"] {
            try decide(viewer, favoured, .hate)
            try decide(viewer, other, .like)
        }
        return store
    }

    func dealt(_ store: any SwipeDatabase, model: Ranking.Model) throws -> [String] {
        let feed = try rankedFeed(store, viewer: "v", records: false, model: model, clock: { Self.now })
        return try feed.nextProfiles(limit: 5, excluding: []).map(\.id)
    }

    @Test(arguments: TestBackend.all, ["c", "d"])
    func coLikersOrderTheTie(_ backend: TestBackend, favoured: String) throws {
        let model = Ranking.Model(
            aggregation: .product, prior: .fitted, sharedWeight: 0, collaborativeWeight: 1,
            off: Ranking.Model.standard.off.subtracting([.coLiked, .likesYourType]))
        let store = try town(backend, favoured: favoured)
        #expect(try dealt(store, model: model) == [favoured, favoured == "c" ? "d" : "c"])
        // Without the signal the two tie: the viewer's tie hash orders them.
        let ties = DiscoveryModel.tieOrder("v", ["c", "d"])
        #expect(try dealt(store, model: model.without(.coLiked)) == ties)
        #expect(try dealt(store, model: .standard) == ties)
        withExtendedLifetime(stores) {}
    }

    /// `Prior.market` through each backend's real feed: its read of the
    /// market sample runs, and the feed deals as the ranking does over the
    /// sample worked out by hand (those who acted: V, U1…U4, with their
    /// counts from the ledger above).
    @Test(arguments: TestBackend.all) func marketPriorDealsAsTheRankingOverTheSample(_ backend: TestBackend) throws {
        let store = try town(backend, favoured: "c")
        let model = Ranking.Model(
            aggregation: .harmonic, prior: .market, sharedWeight: 0, off: Ranking.Model.standard.off)
        let woman = { (given: Int, likes: Int) in Discovery.RankStats(given: given, givenLikes: likes) }
        let market = Ranking.Market([
            .init(key: 1, gender: "female", stats: woman(1, 1)), .init(key: 2, gender: "female", stats: woman(3, 2)),
            .init(key: 3, gender: "female", stats: woman(3, 2)), .init(key: 4, gender: "female", stats: woman(2, 1)),
            .init(key: 5, gender: "female", stats: woman(2, 1)),
        ])
        let man = { (id: String, key: Int) in
            Discovery.RankCandidate(
                key: key, profile: Profile(id: id, name: id, age: 30, gender: "male"),
                stats: Discovery.RankStats(received: 4, receivedLikes: 2))
        }
        let expected = Ranking.order(
            viewer: Profile(id: "v", name: "v", age: 30, gender: "female"), viewerStats: woman(1, 1),
            candidates: [man("c", 7), man("d", 8)], now: Self.now, model: model, market: market
        ).map(\.profile.id)
        #expect(try dealt(store, model: model) == expected)
        withExtendedLifetime(stores) {}
    }
}
