import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// `why` (README "Ranking"): the reasons in words, worked out by hand from
/// the contract, on both backends; never a decision about the viewer beyond
/// what `likes` shows. And the genders check (`prefs seeking X`, imports).
@Suite struct RankingReasonsTests {
    let stores = TestStores()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    func town(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.store(backend)
        let here = Location(lat: 52.52, lon: 13.405)
        // 0.036 degrees of latitude north: 4.0 km exactly, but `why` tells the
        // coarse distance (README "Discovery"): the cells' rows are 1/90 of a
        // degree (1.235 km) and 52.52 is in row 12826 ((52.52 + 90) × 90 =
        // 12826.8), 52.556 in row 12830 (12830.04): four rows, 4.94 km apart
        // north-south, and the columns' centres at most 1.24 km apart east-west,
        // so between 4.94 and 5.09 km: 5 km.
        let there = Location(lat: 52.556, lon: 13.405)
        try store.upsert(
            Profile(
                id: "v", name: "V", age: 30, gender: "female", interests: ["Hiking", "jazz", "tea"],
                location: here))
        try store.upsert(
            Profile(
                id: "fan", name: "F", age: 31, gender: "male", interests: ["jazz", "hiking", "golf"],
                location: there))
        try store.upsert(Profile(id: "cold", name: "C", age: 32, gender: "male", interests: ["golf"]))
        try store.upsert(Profile(id: "decided", name: "D", age: 33, gender: "male"))
        try store.upsert(Profile(id: "idle", name: "I", age: 34, gender: "male"))
        _ = try store.record(
            viewer: "fan", profile: "v", decision: .like, via: .button, at: Self.now.addingTimeInterval(-3600))
        _ = try store.record(
            viewer: "cold", profile: "v", decision: .hate, via: .button, at: Self.now.addingTimeInterval(-3 * 86_400))
        _ = try store.record(
            viewer: "decided", profile: "v", decision: .superlike, via: .button, at: Self.now.addingTimeInterval(-60))
        _ = try store.record(
            viewer: "v", profile: "decided", decision: .hate, via: .button, at: Self.now.addingTimeInterval(-30))
        return store
    }

    @Test(arguments: TestBackend.all) func reasonsInWords(_ backend: TestBackend) throws {
        let store = try town(backend)
        // Only what orders the feed is told (README "Ranking"): the like.
        // Not "5 km away", "2 shared interests: jazz, hiking", "new here" or
        // "active today": the ablation took those signals out of the score.
        #expect(try store.reasons(viewer: "v", about: "fan", now: Self.now) == ["likes you"])
        // A hate of the viewer is never told.
        #expect(try store.reasons(viewer: "v", about: "cold", now: Self.now) == [])
        // A superlike the viewer already decided is no longer in `likes`: not told either.
        #expect(try store.likes(viewer: "v").map(\.profile) == ["fan"])
        #expect(try store.reasons(viewer: "v", about: "decided", now: Self.now) == [])
        #expect(try store.reasons(viewer: "v", about: "idle", now: Self.now) == [])
        #expect(throws: StoreError.unknownProfile("ghost")) { try store.reasons(viewer: "v", about: "ghost") }
        withExtendedLifetime(stores) {}
    }

    @Test(arguments: TestBackend.all) func gendersNobodyHasAreNamedWithThoseThere(_ backend: TestBackend) throws {
        let store = try town(backend)
        try store.upsert(Profile(id: "nb", name: "N", age: 30, gender: " Non-Binary "))
        #expect(
            try store.unknownGenders(["f"])
                == #"nobody has gender "f"; the genders here: female 1, male 4, non-binary 1"#)
        #expect(
            try store.unknownGenders(["f", "male", "x"])
                == #"nobody has gender "f", "x"; the genders here: female 1, male 4, non-binary 1"#)
        #expect(try store.unknownGenders(["Female", "non-binary"]) == nil)
        #expect(try store.unknownGenders([]) == nil, "empty is everyone")
        // After an import: a seeking that names a gender nobody has.
        #expect(try store.unknownSoughtGenders() == nil)
        _ = try store.setPreferences(viewer: "idle", PreferencesChange(seeking: ["f"]))
        #expect(
            try store.unknownSoughtGenders()
                == #"nobody has gender "f"; the genders here: female 1, male 4, non-binary 1"#)
        withExtendedLifetime(stores) {}
    }
}
