import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The discovery columns through the importer (README "Profiles CSV").
@Suite struct DiscoveryImportTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }

    @Test(arguments: TestBackend.all) func columnsAreReadNormalisedAndStored(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        let csv = folder.file(
            "p.csv",
            """
            id,name,age,gender,lat,lon,seeking,age_min,age_max,max_km
            a,A,30,F,52.52,13.405, F ; m ;f;;,25,35,50.5
            b,B,40,,,,,,,

            """)
        _ = try importing(store).importProfiles(path: csv)
        let a = try #require(try store.profile(id: "a"))
        #expect(a.location == Location(lat: 52.52, lon: 13.405))
        #expect(a.preferences == Preferences(seeking: ["f", "m"], ageMin: 25, ageMax: 35, maxKm: 50.5))
        let b = try #require(try store.profile(id: "b"))
        #expect(b.location == nil && b.preferences == Preferences())
    }

    /// The 64-row INSERT does not bind again a NULL or number its parameter
    /// already holds from the chunk before. Rows here change their values in
    /// runs of 37 that straddle the chunks: blank (NULL and the defaults),
    /// one fixed set, a set that changes every row, another fixed set, and
    /// runs where a single column changes. Every stored row must be what its
    /// line says, worked out here from the line's own numbers.
    @Test(arguments: TestBackend.all) func valuesThatRepeatAcrossChunksAreStoredAsEachLineSays(
        _ backend: TestBackend
    ) throws {
        let store = try stores.store(backend)
        struct Line {
            var gender = "", city = "", lat = "", lon = "", seeking = "", ageMin = "", ageMax = "", maxKm = ""
        }
        func line(_ row: Int) -> Line {
            switch (row / 37) % 6 {
            case 0: return Line()
            case 1:
                return Line(
                    gender: "f", city: "Oslo", lat: "59.91", lon: "10.75", seeking: "m", ageMin: "25", ageMax: "35",
                    maxKm: "50")
            case 2:
                return Line(
                    gender: row % 2 == 0 ? "m" : "", city: "C\(row)", lat: "\(row % 80).5", lon: "-\(row % 170).25",
                    seeking: row % 3 == 0 ? "" : "f", ageMin: "\(18 + row % 20)", ageMax: "\(40 + row % 50)",
                    maxKm: row % 4 == 0 ? "" : "\(row)")
            case 3, 4:
                // Run 4: run 3's set but for age_max, which changes every row.
                return Line(
                    gender: "x", city: "Lima", lat: "-12.05", lon: "-77.04", seeking: "f;m", ageMin: "30",
                    ageMax: (row / 37) % 6 == 3 ? "40" : "\(41 + row % 3)", maxKm: "5")
            default: return Line(lat: "0", lon: "0", ageMin: "18", ageMax: "120")
            }
        }
        let count = 37 * 6 * 2 + 11
        let text = (0..<count).map { row in
            let l = line(row)
            return [
                "p\(row)", "N\(row)", "\(20 + row % 60)", l.gender, l.city, l.lat, l.lon, l.seeking, l.ageMin, l.ageMax,
                l.maxKm,
            ].joined(separator: ",")
        }
        let csv = folder.file(
            "runs.csv",
            "id,name,age,gender,city,lat,lon,seeking,age_min,age_max,max_km\n" + text.joined(separator: "\n") + "\n")
        #expect(try importing(store).importProfiles(path: csv).inserted == count)
        for row in 0..<count {
            let l = line(row)
            let stored = try #require(try store.profile(id: "p\(row)"))
            #expect(stored.age == 20 + row % 60)
            #expect(stored.gender == (l.gender.isEmpty ? nil : l.gender), "line \(row + 2)")
            #expect(stored.city == (l.city.isEmpty ? nil : l.city), "line \(row + 2)")
            #expect(
                stored.location == (l.lat.isEmpty ? nil : Location(lat: Double(l.lat)!, lon: Double(l.lon)!)),
                "line \(row + 2)")
            let expected = Preferences(
                seeking: l.seeking.isEmpty ? [] : l.seeking.split(separator: ";").map(String.init),
                ageMin: Int(l.ageMin) ?? 18, ageMax: Int(l.ageMax) ?? 120, maxKm: Double(l.maxKm))
            #expect(stored.preferences == expected, "line \(row + 2)")
        }
    }

    /// The fields are trimmed as every other column is: ASCII blanks on the
    /// bytes, Unicode blanks (no-break and ideographic spaces) too, and a
    /// non-ASCII character inside a value is no blank.
    @Test(arguments: TestBackend.all) func unicodeBlanksAroundANumberAreTrimmed(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        let csv = folder.file(
            "p.csv",
            """
            id,name,age,lat,lon,age_min,max_km
            a,A,30,\u{00A0}52.5 ,\t\u{3000}13.25\u{2009},  25\u{00A0},\u{202F}7
            b,B,30,1,2,,5\u{00A0}km

            """)
        let failure = #expect(throws: ImportFailure.self) { try importing(store).importProfiles(path: csv) }
        #expect(
            failure?.issues.map(\.message) == ["max_km must be a number of km above 0 (leave it empty for no limit)"],
            "\(String(describing: failure?.issues))")
        let ok = folder.file(
            "q.csv",
            """
            id,name,age,lat,lon,age_min,max_km
            a,A,30,\u{00A0}52.5 ,\t\u{3000}13.25\u{2009},  25\u{00A0},\u{202F}7

            """)
        _ = try importing(store).importProfiles(path: ok)
        let a = try #require(try store.profile(id: "a"))
        #expect(a.location == Location(lat: 52.5, lon: 13.25))
        #expect(a.preferences == Preferences(seeking: [], ageMin: 25, ageMax: 120, maxKm: 7))
    }

    /// Numbers as people type them and nothing else: Swift's `Double`
    /// would read `0x10` as 16 and `inf` as infinity; the importer refuses
    /// them, as `prefs` does, naming the line, column and value.
    @Test(arguments: ["0x10", "0X1p4", "inf", "nan", "1e", "١٢"])
    func aNumberThatIsNotPlainDecimalIsRefused(_ value: String) throws {
        let store = try folder.store()
        let csv = folder.file("p.csv", "id,name,age,lat,lon,max_km\na,A,30,1,\(value),5\nb,B,30,1,2,\(value)\n")
        let failure = #expect(throws: ImportFailure.self) { try SQLiteImporter(store: store).importProfiles(path: csv) }
        #expect(failure?.issues.map(\.line) == [2, 3])
        #expect(failure?.issues.map(\.column) == ["lon", "max_km"])
        #expect(failure?.issues.allSatisfy { $0.value == value } == true)
    }

    /// A re-import keeps the columns its file lacks, but sets an age window
    /// (and a place) whole: a file with only age_max cannot leave a stored
    /// age_min above it.
    @Test(arguments: TestBackend.all) func halvesOfAPairAreSetTogether(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        try store.upsert(
            Profile(
                id: "a", name: "A", age: 30, location: Location(lat: 1, lon: 2),
                preferences: Preferences(seeking: ["m"], ageMin: 40, ageMax: 50, maxKm: 9)))
        let csv = folder.file("p.csv", "id,name,age,age_max\na,A,30,35\n")
        _ = try importing(store).importProfiles(path: csv)
        let a = try #require(try store.profile(id: "a"))
        #expect(a.preferences == Preferences(seeking: ["m"], ageMin: 18, ageMax: 35, maxKm: 9))
        #expect(a.location == Location(lat: 1, lon: 2))
        if let sqlite = store as? SQLiteStore {
            #expect(try sqlite.connection.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
        }
    }

    /// A first import drops the index of places while it loads and makes it
    /// again at the end, in its transaction: after a success or a failure the
    /// index is there, the same as schema.sql's.
    @Test func aFirstImportLeavesTheIndexOfPlacesInPlace() throws {
        let store = try folder.store()
        func placesIndex() throws -> String? {
            try store.connection.statement("SELECT sql FROM sqlite_master WHERE name = 'profiles_cell'").bind().first {
                $0.text(0)
            }
        }
        let expected = try placesIndex()
        #expect(expected != nil)
        let bad = folder.file("bad.csv", "id,name,age,lat,lon\na,A,30,1,2\nb,B,17,1,2\n")
        #expect(throws: ImportFailure.self) { try SQLiteImporter(store: store).importProfiles(path: bad) }
        #expect(try placesIndex() == expected)
        let good = folder.file("good.csv", "id,name,age,lat,lon\na,A,30,1,2\nb,B,31,1.5,2\n")
        _ = try SQLiteImporter(store: store).importProfiles(path: good)
        #expect(try placesIndex() == expected)
        #expect(
            try store.connection.scalarInt(
                """
                SELECT count(*) FROM profiles INDEXED BY profiles_cell
                WHERE lat IS NOT NULL AND CAST(lat + 90 AS INTEGER) * 1000 + CAST(lon + 180 AS INTEGER) = 91182
                """) == 2)
    }
}
