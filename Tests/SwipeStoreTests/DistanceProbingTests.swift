import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// Eligibility against max_km cannot be used to pin a person down (issue 23,
/// item 1): an attacker who moves their own place in 100 m steps and steps
/// their max_km by 100 m at each place, watching whether the person is in
/// their feed, learns no more than the person's cell, about 1.2 km across.
///
/// The person and eight others stand 600 m from them in eight directions
/// (a cell is at least 1.2 km on a side, so whatever the person's place,
/// one of those is in the same cell). Rate limits do not apply here: the
/// store is driven directly. If some place 600 m away gives exactly the
/// attacker's readings, the person cannot be told from it, so the readings
/// do not pin them within 500 m. On the exact distance every one of the
/// eight reads differently.
@Suite struct DistanceProbingTests {
    let stores = TestStores()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let metresPerDegree = Discovery.earthRadiusKm * 1000 * .pi / 180

    static func moved(_ place: Location, north: Double, east: Double) -> Location {
        Location(
            lat: place.lat + north / metresPerDegree,
            lon: place.lon + east / (metresPerDegree * cos(place.lat * .pi / 180)))
    }

    static func person(_ id: String, at place: Location) -> Profile {
        Profile(id: id, name: id, age: 30, location: place)
    }

    @Test(arguments: TestBackend.all) func steppingOnesPlaceAndMaxKmDoesNotPinAPersonWithin500Metres(
        _ backend: TestBackend
    ) throws {
        let store = try stores.open(backend, "probe")
        let target = Location(lat: 38.7223, lon: -9.1393)
        let decoys = (0..<8).map { i -> (id: String, place: Location) in
            let angle = Double(i) * .pi / 4
            return ("decoy\(i)", Self.moved(target, north: 600 * cos(angle), east: 600 * sin(angle)))
        }
        try store.upsert(Self.person("attacker", at: target))
        try store.upsert(Self.person("target", at: target))
        for decoy in decoys { try store.upsert(Self.person(decoy.id, at: decoy.place)) }
        let ids = ["target"] + decoys.map(\.id)

        // The attacker's probes: 100 m steps along two lines 2 km each way through the target.
        let steps = stride(from: -2000.0, through: 2000, by: 100)
        let probes =
            steps.map { Self.moved(target, north: $0, east: 0) } + steps.map { Self.moved(target, north: 0, east: $0) }
        let limits = Array(stride(from: 0.1, through: 6.0, by: 0.1))
        // For each probe and each person: the smallest limit at which they are in the feed.
        var readings: [String: [Double?]] = Dictionary(uniqueKeysWithValues: ids.map { ($0, []) })
        for probe in probes {
            var first: [String: Double] = [:]
            for km in limits where first.count < ids.count {
                _ = try store.setPreferences(
                    viewer: "attacker", PreferencesChange(maxKm: .some(km), location: .some(probe)))
                let feed = try rankedFeed(store, viewer: "attacker", records: false, clock: { Self.now })
                for profile in try feed.nextProfiles(limit: 100, excluding: []) where first[profile.id] == nil {
                    first[profile.id] = km
                }
            }
            for id in ids { readings[id]!.append(first[id]) }
        }
        // The attacker does see the target, from every probe, within the limits tried.
        #expect(readings["target"]!.allSatisfy { $0 != nil })
        let alike = decoys.filter { readings[$0.id]! == readings["target"]! }
        #expect(!alike.isEmpty, "every place 600 m away reads differently: the target is pinned within 500 m")
        for decoy in alike {
            #expect(Discovery.distanceKm(decoy.place, target) >= 0.5)
        }
    }
}
