import Foundation
import SwipeCore
import SwipeStore
import Testing

/// The distance a page shows for another person (`Discovery.shownDistanceKm`):
/// whole km, never under 1, and coarse enough that watching it while moving
/// one's own place does not pin anyone down (issue 23, item 1).
@Suite("Distances shown to other people")
struct ShownDistanceTests {
    static let lisbon = Location(lat: 38.7223, lon: -9.1393)
    static let metresPerDegree = Discovery.earthRadiusKm * 1000 * .pi / 180

    /// `place` moved `north` and `east` metres.
    static func moved(_ place: Location, north: Double, east: Double) -> Location {
        Location(
            lat: place.lat + north / metresPerDegree,
            lon: place.lon + east / (metresPerDegree * cos(place.lat * .pi / 180)))
    }

    /// The places on a square grid of `step` metres, `half` metres each way around `place`.
    static func grid(around place: Location, half: Double, step: Double) -> [(
        north: Double, east: Double, at: Location
    )] {
        let offsets = Array(stride(from: -half, through: half, by: step))
        return offsets.flatMap { north in offsets.map { east in (north, east, moved(place, north: north, east: east)) }
        }
    }

    /// What an attacker learns: they move their place in 100 m steps over a
    /// 4 km square around the person and read the distance shown at each
    /// step; every place on a 50 m grid that would have shown the same
    /// numbers is still a candidate. The farthest candidate from the person
    /// is how well they are hidden.
    static func hiddenWithin(_ shown: (Location, Location) -> Int?, person: Location) -> Double {
        let probes = grid(around: person, half: 2000, step: 100).map(\.at)
        let readings = probes.map { shown($0, person) }
        var farthest = 0.0
        for candidate in grid(around: person, half: 1500, step: 50) {
            let distance = (candidate.north * candidate.north + candidate.east * candidate.east).squareRoot()
            guard distance > farthest else { continue }
            if zip(probes, readings).allSatisfy({ shown($0.0, candidate.at) == $0.1 }) { farthest = distance }
        }
        return farthest
    }

    @Test func movingOnesPlaceIn100MetreStepsDoesNotPinAPersonWithin500Metres() {
        for person in [Self.lisbon, Location(lat: 59.9139, lon: 10.7522), Location(lat: -33.8688, lon: 151.2093)] {
            #expect(Self.hiddenWithin(Discovery.shownDistanceKm, person: person) >= 500, "\(person)")
        }
    }

    /// The attack is real: the same readings from the exact distance, merely
    /// rounded up to whole km, pin the person within 500 m.
    @Test func theAttackPinsAPersonWhenTheDistanceIsMerelyRounded() {
        let rounded = { (a: Location, b: Location) -> Int? in Int(Discovery.distanceKm(a, b).rounded(.up)) }
        #expect(Self.hiddenWithin(rounded, person: Self.lisbon) < 500)
    }

    @Test func theDistanceIsWholeKilometresNeverUnderOneAndCloseToTheTruth() throws {
        #expect(Discovery.shownDistanceKm(from: Self.lisbon, to: Self.lisbon) == 1)
        #expect(Discovery.shownDistanceKm(from: nil, to: Self.lisbon) == nil)
        #expect(Discovery.shownDistanceKm(from: Self.lisbon, to: nil) == nil)
        // Porto is 274 km from Lisbon (great circle); cells are about 1.2 km.
        let porto = Location(lat: 41.1579, lon: -8.6291)
        let shown = try #require(Discovery.shownDistanceKm(from: Self.lisbon, to: porto))
        #expect(abs(Double(shown) - 274.3) <= 2)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = Location(
                lat: .random(in: -80...80, using: &generator), lon: .random(in: -180...180, using: &generator))
            let b = Self.moved(
                a, north: .random(in: -50_000...50_000, using: &generator),
                east: .random(in: -50_000...50_000, using: &generator))
            let exact = Discovery.distanceKm(a, b)
            let km = try #require(Discovery.shownDistanceKm(from: a, to: b))
            #expect(km >= 1 && abs(Double(km) - exact) <= 2.5, "\(a) \(b) exact \(exact) shown \(km)")
        }
    }
}
