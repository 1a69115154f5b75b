import Foundation
import PropertyBased
import SwipeCore
import SwipeTestSupport
import Testing
@testable import SwipeStore
@_spi(Benchmarks) @testable import SwipeSQLite
@testable import SwipeCSV

/// The feed against an independent brute-force model of README "Discovery":
/// random profiles (some without a location or a gender, some exactly at a
/// distance or age limit), preferences, decisions, likes, undos and blocks;
/// the model walks every profile and applies each rule literally, and the
/// SQL feed must deal exactly the same sequence, card by card.
@Suite struct DiscoveryModelTests {
    /// A small deterministic generator, so one integer is one scenario.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    }

    /// Places near each other, far apart, across the antimeridian and by a pole.
    static let places = [
        Location(lat: 52.52, lon: 13.405), Location(lat: 52.60, lon: 13.50), Location(lat: 52.40, lon: 13.10),
        Location(lat: 48.8566, lon: 2.3522), Location(lat: -33.87, lon: 151.21), Location(lat: 0.5, lon: 179.95),
        Location(lat: 0.4, lon: -179.9), Location(lat: 89.95, lon: 10), Location(lat: 89.9, lon: -170),
    ]

    /// The haversine of the contract, written out for the model.
    static func distance(_ a: Location, _ b: Location) -> Double {
        let r = 6371.0088, rad = Double.pi / 180
        let sinLat = sin((b.lat - a.lat) * rad / 2), sinLon = sin((b.lon - a.lon) * rad / 2)
        let h = sinLat * sinLat + cos(a.lat * rad) * cos(b.lat * rad) * sinLon * sinLon
        return 2 * r * asin(min(1, sqrt(h)))
    }

    struct Person {
        var id: String
        var age: Int
        var gender: String?
        var location: Location?
        var seeking: [String]
        var ageMin: Int, ageMax: Int
        var maxKm: Double?
    }

    struct Scenario {
        var people: [Person] = []
        /// (viewer, profile, decision, time, undone), in insertion order.
        var decisions: [(Int, Int, Decision, Int, Bool)] = []
        var blocks: [(Int, Int)] = []
    }

    static func scenario(seed: Int) -> Scenario {
        var random = Random(state: UInt64(bitPattern: Int64(seed)))
        var s = Scenario()
        let count = random.int(4...28)
        for n in 0..<count {
            let location: Location? = random.chance(20) ? nil : random.pick(places)
            let age = random.int(18...40)
            let low = random.pick([18, 20, 25, 30, age, random.int(18...40)])
            let high = max(low, random.pick([120, 40, 30, 25, age, random.int(18...40)]))
            s.people.append(Person(
                id: "u\(n)", age: age, gender: random.pick([nil, "f", "F ", "m", "x", "M"]), location: location,
                seeking: random.chance(40) ? [] : Array(Set((0..<random.int(1...2)).map { _ in random.pick(["f", "m", "x"]) })).sorted(),
                ageMin: low, ageMax: high,
                maxKm: random.chance(40) ? nil : random.pick([1.0, 20, 50, 1000, 5000, 25000])))
        }
        // Some limits exactly at the distance to someone else.
        for n in s.people.indices where random.chance(30) {
            let other = random.int(0...(count - 1))
            if let here = s.people[n].location, let there = s.people[other].location, other != n,
               distance(here, there) > 0 {
                s.people[n].maxKm = distance(here, there)
            }
        }
        var decided: Set<[Int]> = []
        for time in 0..<random.int(0...(count * 3)) {
            let viewer = random.int(0...(count - 1)), profile = random.int(0...(count - 1))
            guard viewer != profile, decided.insert([viewer, profile]).inserted else { continue }
            s.decisions.append((viewer, profile, random.pick([.like, .like, .superlike, .hate]), random.int(0...50) * 1000 + time,
                                random.chance(15)))
        }
        for _ in 0..<random.int(0...3) {
            let a = random.int(0...(count - 1)), b = random.int(0...(count - 1))
            if a != b && !s.blocks.contains(where: { $0 == (a, b) }) { s.blocks.append((a, b)) }
        }
        return s
    }

    /// The contract, literally: who `viewer` may see, in the contract's order
    /// (superlikers, then likers, oldest first; then the rest by key, which
    /// is this implementation's choice of stable order).
    static func expectedFeed(_ s: Scenario, viewer v: Int) -> [String] {
        func key(_ gender: String?) -> String? {
            gender.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func accepts(_ a: Person, _ b: Person) -> Bool {  // a would see b
            if !a.seeking.isEmpty { guard let g = key(b.gender), a.seeking.contains(g) else { return false } }
            return (a.ageMin...a.ageMax).contains(b.age)
        }
        let me = s.people[v]
        let standing = s.decisions.filter { !$0.4 }
        var eligible: [Int] = []
        for c in s.people.indices where c != v {
            let other = s.people[c]
            if standing.contains(where: { $0.0 == v && $0.1 == c }) { continue }
            if s.blocks.contains(where: { $0 == (v, c) || $0 == (c, v) }) { continue }
            guard accepts(me, other), accepts(other, me) else { continue }
            if me.maxKm != nil || other.maxKm != nil {
                guard let a = me.location, let b = other.location else { continue }
                let d = distance(a, b)
                if let limit = me.maxKm, d > limit { continue }
                if let limit = other.maxKm, d > limit { continue }
            }
            eligible.append(c)
        }
        func likers(_ kind: Decision) -> [Int] {
            standing.enumerated().filter { $0.element.1 == v && $0.element.2 == kind && eligible.contains($0.element.0) }
                .sorted { ($0.element.3, $0.offset) < ($1.element.3, $1.offset) }.map { $0.element.0 }
        }
        let first = likers(.superlike) + likers(.like)
        return (first + eligible.filter { !first.contains($0) }).map { s.people[$0].id }
    }

    static func load(_ s: Scenario, into store: any SwipeDatabase) throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for p in s.people {
            try store.upsert(Profile(
                id: p.id, name: p.id, age: p.age, gender: p.gender, location: p.location,
                preferences: Preferences(seeking: p.seeking, ageMin: p.ageMin, ageMax: p.ageMax, maxKm: p.maxKm)))
        }
        for (viewer, profile, decision, time, undone) in s.decisions {
            let at = start.addingTimeInterval(Double(time))
            _ = try store.record(viewer: s.people[viewer].id, profile: s.people[profile].id, decision: decision, via: .import, at: at)
            if undone { _ = try store.undo(viewer: s.people[viewer].id, profile: s.people[profile].id, at: at) }
        }
        for (a, b) in s.blocks { try store.block(viewer: s.people[a].id, profile: s.people[b].id) }
    }

    /// Each seed gets a database of its own: the feed deals from all of it.
    static func check(seed: Int, on backend: TestBackend, in stores: TestStores) throws {
        let s = scenario(seed: seed)
        let store = try stores.open(backend, "model\(seed)-\(UUID().uuidString)")  // shrinking runs a seed again
        try load(s, into: store)
        for v in s.people.indices {
            let expected = expectedFeed(s, viewer: v)
            // On SQLite, the cells of a box, or (cellLimit 0) the walk by key for every box.
            let feed: any ProfileFeed = if let sqlite = store as? Store {
                try SQLiteFeed(store: sqlite, viewer: s.people[v].id, cellLimit: v % 2 == 0 ? nil : 0)
            } else {
                try store.feed(viewer: s.people[v].id)
            }
            // All at once…
            #expect(try feed.nextProfiles(limit: 1000, excluding: []).map(\.id) == expected, "seed \(seed) viewer u\(v)")
            // …and card by card, as a deck of four that keeps its cards deals them.
            var dealt: [String] = []
            while let next = try feed.nextProfiles(limit: 1, excluding: Set(dealt.suffix(4))).first {
                dealt.append(next.id)
                if dealt.count >= 4 {
                    // The oldest card in the deck is decided, as a person would.
                    let decided = dealt[dealt.count - 4]
                    _ = try store.record(viewer: s.people[v].id, profile: decided, decision: .hate, via: .drag)
                }
                if dealt.count > expected.count + 4 { break }
            }
            #expect(dealt == expected, "seed \(seed) viewer u\(v), card by card")
        }
    }

    /// Fewer seeds on PostgreSQL, where each is a CREATE DATABASE.
    @Test(arguments: TestBackend.all) func feedDealsExactlyTheModelsSequence(_ backend: TestBackend) async {
        let stores = TestStores()
        await propertyCheck(count: backend == .sqlite ? 60 : 20, input: Gen.int(in: 0...1_000_000)) { seed in
            try Self.check(seed: seed, on: backend, in: stores)
        }
    }

    /// A profile exactly at the limit is in; a metre further is out.
    @Test(arguments: TestBackend.all) func distanceLimitIsInclusive(_ backend: TestBackend) throws {
        let stores = TestStores()
        let store = try stores.open(backend)
        let here = Location(lat: 52.52, lon: 13.405), there = Location(lat: 52.60, lon: 13.50)
        let exact = Self.distance(here, there)
        try store.upsert(Profile(id: "v", name: "V", age: 30, location: here, preferences: Preferences(maxKm: exact)))
        try store.upsert(Profile(id: "at", name: "At", age: 30, location: there))
        try store.upsert(Profile(id: "beyond", name: "B", age: 30, location: Location(lat: 52.6001, lon: 13.50)))
        try store.upsert(Profile(id: "nowhere", name: "N", age: 30))
        #expect(try store.feed(viewer: "v").nextProfiles(limit: 9, excluding: []).map(\.id) == ["at"])
        withExtendedLifetime(stores) {}
    }
}
