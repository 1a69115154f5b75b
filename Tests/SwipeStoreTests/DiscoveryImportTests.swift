import Foundation
import SwipeCore
import SwipeTestSupport
import Testing
@testable import SwipeStore

/// The discovery columns through the importer (README "Profiles CSV").
@Suite struct DiscoveryImportTests {
    let folder = TemporaryFolder()

    @Test func columnsAreReadNormalisedAndStored() throws {
        let store = try folder.store()
        let csv = folder.file("p.csv", """
            id,name,age,gender,lat,lon,seeking,age_min,age_max,max_km
            a,A,30,F,52.52,13.405, F ; m ;f;;,25,35,50.5
            b,B,40,,,,,,,

            """)
        _ = try Importer(store: store).importProfiles(path: csv)
        let a = try #require(try store.profile(id: "a"))
        #expect(a.location == Location(lat: 52.52, lon: 13.405))
        #expect(a.preferences == Preferences(seeking: ["f", "m"], ageMin: 25, ageMax: 35, maxKm: 50.5))
        let b = try #require(try store.profile(id: "b"))
        #expect(b.location == nil && b.preferences == Preferences())
    }

    /// A re-import keeps the columns its file lacks, but sets an age window
    /// (and a place) whole: a file with only age_max cannot leave a stored
    /// age_min above it.
    @Test func halvesOfAPairAreSetTogether() throws {
        let store = try folder.store()
        try store.upsert(Profile(id: "a", name: "A", age: 30, location: Location(lat: 1, lon: 2),
                                 preferences: Preferences(seeking: ["m"], ageMin: 40, ageMax: 50, maxKm: 9)))
        let csv = folder.file("p.csv", "id,name,age,age_max\na,A,30,35\n")
        _ = try Importer(store: store).importProfiles(path: csv)
        let a = try #require(try store.profile(id: "a"))
        #expect(a.preferences == Preferences(seeking: ["m"], ageMin: 18, ageMax: 35, maxKm: 9))
        #expect(a.location == Location(lat: 1, lon: 2))
        #expect(try store.connection.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
    }
}
