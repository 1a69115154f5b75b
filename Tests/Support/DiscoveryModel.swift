import Foundation
import SwipeCore

/// An independent brute-force model of README "Discovery", for the feeds'
/// model tests on every backend: random scenarios (some profiles without a
/// location or a gender, some exactly at a distance or age limit),
/// preferences, decisions, likes, undos and blocks, and the sequence the
/// contract says a viewer's feed deals, worked out by walking every profile
/// and applying each rule literally.
public enum DiscoveryModel {
    /// A small deterministic generator (`SplitMix64`), so one integer is one scenario.
    public struct Random {
        var generator: SplitMix64
        public init(state: UInt64) { generator = SplitMix64(seed: state) }
        public init(seed: Int) { self.init(state: UInt64(bitPattern: Int64(seed))) }
        public mutating func next() -> UInt64 { generator.next() }
        public mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
        public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    }

    /// Places near each other, far apart, across the antimeridian and by a pole.
    public static let places = [
        Location(lat: 52.52, lon: 13.405), Location(lat: 52.60, lon: 13.50), Location(lat: 52.40, lon: 13.10),
        Location(lat: 48.8566, lon: 2.3522), Location(lat: -33.87, lon: 151.21), Location(lat: 0.5, lon: 179.95),
        Location(lat: 0.4, lon: -179.9), Location(lat: 89.95, lon: 10), Location(lat: 89.9, lon: -170),
    ]

    /// The haversine of the contract, written out for the model.
    public static func distance(_ a: Location, _ b: Location) -> Double {
        let r = 6371.0088, rad = Double.pi / 180
        let sinLat = sin((b.lat - a.lat) * rad / 2), sinLon = sin((b.lon - a.lon) * rad / 2)
        let h = sinLat * sinLat + cos(a.lat * rad) * cos(b.lat * rad) * sinLon * sinLon
        return 2 * r * asin(min(1, sqrt(h)))
    }

    /// The centre of the cell holding a place, as README "Discovery" defines
    /// the cells, written out for the model: rows 1/90 of a degree of
    /// latitude high from the south pole; a row whose centre is at latitude
    /// φ is cut into ⌊360·cos φ·90⌋ equal columns (at least 1) from −180°.
    public static func cellCentre(_ p: Location) -> Location {
        let row = min(179 * 90 + 89, max(0, Int(floor((p.lat + 90) * 90))))
        let lat = -90 + (Double(row) + 0.5) / 90
        let columns = max(1, Int(floor(360 * cos(lat * Double.pi / 180) * 90)))
        let width = 360 / Double(columns)
        let column = ((Int(floor((p.lon + 180) / width)) % columns) + columns) % columns
        return Location(lat: lat, lon: -180 + (Double(column) + 0.5) * width)
    }

    /// The distance discovery compares with max_km: whole km (rounded, half
    /// away from zero) between the centres of both cells, the viewer's first.
    public static func coarseDistance(_ viewer: Location, _ other: Location) -> Double {
        distance(cellCentre(viewer), cellCentre(other)).rounded()
    }

    public struct Person {
        public var id: String
        public var age: Int
        public var gender: String?
        public var location: Location?
        public var seeking: [String]
        public var ageMin: Int, ageMax: Int
        public var maxKm: Double?
        /// Interests (the ranking's shared interests), some spelled apart.
        public var interests: [String] = []

        /// The person as a profile to store.
        public var profile: Profile {
            Profile(
                id: id, name: id, age: age, gender: gender, interests: interests, location: location,
                preferences: Preferences(seeking: seeking, ageMin: ageMin, ageMax: ageMax, maxKm: maxKm))
        }
    }

    /// One decision of the scenario: who about whom, what, when (seconds
    /// after the scenario's start) and whether it was undone.
    public struct Choice {
        public var viewer: Int, profile: Int
        public var decision: Decision
        public var time: Int
        public var undone: Bool
    }

    public struct Scenario {
        /// In insertion order, so person n has the n-th internal key.
        public var people: [Person] = []
        /// In insertion order.
        public var decisions: [Choice] = []
        /// (blocker, blocked).
        public var blocks: [(Int, Int)] = []
    }

    public static func scenario(seed: Int) -> Scenario {
        var random = Random(seed: seed)
        var s = Scenario()
        let count = random.int(4...28)
        for n in 0..<count {
            let location: Location? = random.chance(20) ? nil : random.pick(places)
            let age = random.int(18...40)
            let low = random.pick([18, 20, 25, 30, age, random.int(18...40)])
            let high = max(low, random.pick([120, 40, 30, 25, age, random.int(18...40)]))
            s.people.append(
                Person(
                    id: "u\(n)", age: age, gender: random.pick([nil, "f", "F ", "m", "x", "M"]), location: location,
                    seeking: random.chance(40)
                        ? [] : Array(Set((0..<random.int(1...2)).map { _ in random.pick(["f", "m", "x"]) })).sorted(),
                    ageMin: low, ageMax: high,
                    maxKm: random.chance(40) ? nil : random.pick([1.0, 20, 50, 1000, 5000, 25000])))
        }
        // Some limits exactly at the (coarse) distance to someone else, some
        // at the exact distance, which the coarse one may pass either way.
        for n in s.people.indices where random.chance(30) {
            let other = random.int(0...(count - 1))
            if let here = s.people[n].location, let there = s.people[other].location, other != n,
                distance(here, there) > 0
            {
                let coarse = coarseDistance(here, there)
                s.people[n].maxKm = coarse > 0 && n % 2 == 0 ? coarse : distance(here, there)
            }
        }
        var decided: Set<[Int]> = []
        for time in 0..<random.int(0...(count * 3)) {
            let viewer = random.int(0...(count - 1)), profile = random.int(0...(count - 1))
            guard viewer != profile, decided.insert([viewer, profile]).inserted else { continue }
            s.decisions.append(
                Choice(
                    viewer: viewer, profile: profile, decision: random.pick([.like, .like, .superlike, .hate]),
                    time: random.int(0...50) * 1000 + time, undone: random.chance(15)))
        }
        for _ in 0..<random.int(0...3) {
            let a = random.int(0...(count - 1)), b = random.int(0...(count - 1))
            if a != b && !s.blocks.contains(where: { $0 == (a, b) }) { s.blocks.append((a, b)) }
        }
        for n in s.people.indices {
            s.people[n].interests = Array(
                Set((0..<random.int(0...3)).map { _ in random.pick(["hiking", "jazz", "Jazz", "chess"]) })
            ).sorted()
        }
        return s
    }

    /// The contract, literally: who `viewer` may see, in the contract's order
    /// (superlikers, then likers, oldest first; then the rest by key, which
    /// is the implementations' choice of stable order).
    public static func expectedFeed(_ s: Scenario, viewer v: Int) -> [String] {
        func key(_ gender: String?) -> String? {
            gender.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func accepts(_ a: Person, _ b: Person) -> Bool {  // a would see b
            if !a.seeking.isEmpty { guard let g = key(b.gender), a.seeking.contains(g) else { return false } }
            return (a.ageMin...a.ageMax).contains(b.age)
        }
        let me = s.people[v]
        let standing = s.decisions.filter { !$0.undone }
        var eligible: [Int] = []
        for c in s.people.indices where c != v {
            let other = s.people[c]
            if standing.contains(where: { $0.viewer == v && $0.profile == c }) { continue }
            if s.blocks.contains(where: { $0 == (v, c) || $0 == (c, v) }) { continue }
            guard accepts(me, other), accepts(other, me) else { continue }
            if me.maxKm != nil || other.maxKm != nil {
                guard let a = me.location, let b = other.location else { continue }
                let d = coarseDistance(a, b)
                if let limit = me.maxKm, d > limit { continue }
                if let limit = other.maxKm, d > limit { continue }
            }
            eligible.append(c)
        }
        func likers(_ kind: Decision) -> [Int] {
            standing.enumerated()
                .filter {
                    $0.element.profile == v && $0.element.decision == kind && eligible.contains($0.element.viewer)
                }
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map { $0.element.viewer }
        }
        let first = likers(.superlike) + likers(.like)
        return (first + eligible.filter { !first.contains($0) }).map { s.people[$0].id }
    }
}
