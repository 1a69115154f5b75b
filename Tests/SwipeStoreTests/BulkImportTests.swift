import Foundation
import PropertyBased
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The profile import's fast paths: 64-row INSERTs and their row-by-row
/// fallback, the rollback journal while it runs, and row checks that stand
/// in for the CHECKs SQLite is told to skip.
@Suite struct BulkImportTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }

    func csv(_ rows: [String]) -> String {
        folder.file("p-\(UUID().uuidString).csv", "id,name,age,city,photos\n" + rows.joined(separator: "\n") + "\n")
    }

    /// Rows `range` as `id,name,age,city,photos`, with `tag` in the name.
    func rows(_ range: ClosedRange<Int>, tag: String) -> [String] {
        range.map {
            "id\($0),\(tag) \($0),\(18 + $0 % 80),City \($0 % 7),https://p.example/a\($0).jpg; https://p.example/b.jpg"
        }
    }

    /// The ids in the store's own order (internal keys).
    func order(_ store: any SwipeDatabase) throws -> [String] {
        var ids: [String] = []
        try store.forEachProfile { ids.append($0.id) }
        return ids
    }

    @Test(arguments: TestBackend.all) func manyRowsArriveWholeInFileOrder(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        // 1,000 rows: 15 chunks of 64 and 40 rows one at a time.
        let summary = try importing(store).importProfiles(path: csv(rows(1...1_000, tag: "Name")))
        #expect((summary.inserted, summary.updated) == (1_000, 0))
        #expect(try store.stats().profiles == 1_000)
        // Keys follow the file: the feed's order is the file's order.
        #expect(try order(store) == (1...1_000).map { "id\($0)" })
        let last = try #require(try store.profile(id: "id1000"))
        #expect(
            last
                == Profile(
                    id: "id1000", name: "Name 1000", age: 18 + 1_000 % 80, city: "City 6",
                    photos: ["https://p.example/a1000.jpg", "https://p.example/b.jpg"]))
    }

    @Test(arguments: TestBackend.all) func aReimportUpdatesInPlaceAndInsertsTheRest(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        _ = try importing(store).importProfiles(path: csv(rows(1...300, tag: "Old")))
        let orderBefore = try order(store)
        // 200 known ids (150…349 less the new ones) interleaved with 100 new ones.
        let mixed = rows(150...300, tag: "New") + rows(301...449, tag: "New")
        let summary = try importing(store).importProfiles(path: csv(mixed))
        #expect((summary.inserted, summary.updated) == (149, 151))
        #expect(try store.stats().profiles == 449)
        #expect(try store.profile(id: "id150")?.name == "New 150")
        #expect(try store.profile(id: "id149")?.name == "Old 149")
        // Updated in place: the known ids keep their places, the new ones follow.
        #expect(try order(store) == orderBefore + (301...449).map { "id\($0)" })
    }

    @Test(
        "a re-import counts identical profiles as unchanged and writes only the changed ones",
        arguments: TestBackend.all)
    func identicalRowsAreUnchanged(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        let original = rows(1...200, tag: "Same")
        _ = try importing(store).importProfiles(path: csv(original))
        var edited = original
        edited[49] = "id50,Renamed 50,30,City 1,"  // was "Same 50", age 18 + 50 % 80 = 68, City 50 % 7 = 1, photos
        edited.append("id201,New 201,40,,")
        let summary = try importing(store).importProfiles(path: csv(edited))
        #expect((summary.inserted, summary.updated, summary.unchanged) == (1, 1, 199))
        #expect(summary.line.contains("1 inserted, 1 updated, 199 unchanged, 0 rejected"))
        #expect(try store.profile(id: "id50") == Profile(id: "id50", name: "Renamed 50", age: 30, city: "City 1"))
        // A column emptied is a change too (photos → none).
        var emptied = original
        emptied[0] = "id1,Same 1,19,City 1,"
        let again = try importing(store).importProfiles(path: csv(emptied))
        #expect((again.updated, again.unchanged) == (2, 198), "id1 lost its photos; id50 went back to Same 50")
    }

    /// The later row used to overwrite the earlier one
    /// ("100 inserted, 1 updated"); a repeated id is a row error instead.
    @Test(arguments: TestBackend.all) func anIdTwiceInOneChunkIsARowErrorNamingBothLines(_ backend: TestBackend) throws
    {
        let store = try stores.store(backend)
        var lines = rows(1...100, tag: "First")
        lines.insert("id10,Second 10,40,Lisboa,", at: 30)
        let path = csv(lines)
        let failure = try #require(throws: ImportFailure.self) { try importing(store).importProfiles(path: path) }
        // Header is line 1, so rows[9] (id10) is line 11 and the insert at 30 is line 32.
        #expect(failure.issues.map(\.line) == [32])
        #expect(failure.issues.first?.message == "id repeats line 11; an id may appear once per file")
        #expect(try store.stats().profiles == 0)
        let summary = try importing(store, skipInvalid: true).importProfiles(path: path)
        #expect((summary.inserted, summary.updated, summary.rejected.map(\.line)) == (100, 0, [32]))
        #expect(try store.profile(id: "id10")?.name == "First 10")
    }

    @Test(arguments: TestBackend.all) func skipInvalidAmongManyRowsKeepsTheGoodOnes(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        var lines = rows(1...500, tag: "Name")
        for bad in [400, 250, 70, 3] { lines[bad] = "bad\(bad),Bad,17,," }
        let summary = try importing(store, skipInvalid: true).importProfiles(path: csv(lines))
        #expect(summary.inserted == 496)
        #expect(summary.rejected.map(\.line) == [5, 72, 252, 402])
        #expect(try order(store).filter { $0.hasPrefix("bad") } == [])
        #expect(try store.stats().profiles == 496)
    }

    @Test(arguments: TestBackend.all) func aBadRowAfterManyGoodOnesCommitsNothing(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["keep"])
        var lines = rows(1...700, tag: "Name")
        lines[650] = "x,,30,,"
        do {
            _ = try importing(store).importProfiles(path: csv(lines))
            Issue.record("a row without a name was imported")
        } catch let failure as ImportFailure {
            #expect(failure.issues.map(\.line) == [652])
            #expect(failure.issues.map(\.column) == ["name"])
        }
        #expect(try store.stats().profiles == 1)
    }

    @Test(arguments: TestBackend.all) func anIdOrNameBeginningWithNULIsARowError(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        let text =
            Array("id,name,age\n".utf8) + [0] + Array("x,Name,30\nok,".utf8) + [0] + Array("Name,30\nfine,A".utf8)
            + [0] + Array("B,30\n".utf8)
        let path = folder.file("nul.csv", text)
        let summary = try importing(store, skipInvalid: true).importProfiles(path: path)
        let leading = ["id must not begin with a NUL byte", "name must not begin with a NUL byte"]
        switch backend {
        case .sqlite:
            #expect(summary.inserted == 1)
            #expect(summary.rejected.map(\.line) == [2, 3])
            #expect(summary.rejected.map(\.column) == ["id", "name"])
            #expect(summary.rejected.map(\.message) == leading)
            #expect(try store.profile(id: "fine")?.name == "A\u{0}B")
        case .postgres:
            // README "Profiles CSV": PostgreSQL text cannot hold a NUL, so a
            // NUL inside a field is refused too, naming line and column.
            #expect(summary.inserted == 0)
            #expect(summary.rejected.map(\.line) == [2, 3, 4])
            #expect(summary.rejected.map(\.column) == ["id", "name", "name"])
            #expect(
                summary.rejected.map(\.message) == leading + [
                    "name holds a NUL character, which PostgreSQL cannot store"
                ])
            #expect(try store.profile(id: "fine") == nil)
        }
    }

    @Test func theDatabaseIsBackInWALAfterwardsAndSQLiteChecksOtherWritersAgain() throws {
        let store = try folder.store()
        _ = try SQLiteImporter(store: store).importProfiles(path: csv(rows(1...100, tag: "Name")))
        #expect(try store.connection.statement("PRAGMA journal_mode").bind().first { $0.text(0) } == "wal")
        #expect(try store.connection.scalarInt("PRAGMA ignore_check_constraints") == 0)
        #expect(throws: SQLiteError.self) {
            try store.connection.execute("UPDATE profiles SET photos = 'not json' WHERE id = 'id1'")
        }
    }

    /// Another connection has the file open: leaving WAL is refused at once,
    /// and the import runs in WAL as before, visible to that reader after it.
    @Test func withAnotherConnectionOpenTheImportStaysInWAL() throws {
        let store = try folder.store()
        let other = try SQLiteConnection(path: folder.path + "/test.sqlite")
        #expect(try other.scalarInt("SELECT count(*) FROM profiles") == 0)
        let summary = try SQLiteImporter(store: store).importProfiles(path: csv(rows(1...200, tag: "Name")))
        #expect(summary.inserted == 200)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/test.sqlite-journal"))
        #expect(try other.statement("PRAGMA journal_mode").bind().first { $0.text(0) } == "wal")
        #expect(try other.scalarInt("SELECT count(*) FROM profiles") == 200)
    }

    /// Whatever the importer accepts satisfies every CHECK of the schema,
    /// which SQLite skipped while importing: `PRAGMA integrity_check`
    /// evaluates them all afterwards.
    @Test func acceptedRowsSatisfyEveryCheckSQLiteSkipped() async throws {
        let pieces = [
            "", " ", "\t", "a", "Zoë", "王", "🌸", "\u{0}", "\u{1}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}",
            "\u{3000}", "\"", "\\", ";", ",", "\n", "17", "18", "120", "121", "-0", "3e1", "x",
        ]
        let field = Gen.int(in: 0..<pieces.count).array(of: 0...4).map { $0.map { pieces[$0] }.joined() }
        // Mostly valid ages, so most rows get as far as the other checks.
        let ages = ["18", "30", " 45 ", "120", "17", "121", "x", ""]
        let age = Gen.int(in: 0..<(ages.count * 2)).map { ages[$0 < ages.count ? $0 : $0 % 4] }
        let row = zip(field.array(of: 5), age).map { fields, age in [fields[0], fields[1], age] + fields[2...] }
        let folder = self.folder
        await propertyCheck(count: 60, input: row.array(of: 1...12)) { rows in
            let store = try SQLiteStore(path: folder.path + "/p-\(UUID().uuidString).sqlite")
            let lines = rows.enumerated().map { index, fields in
                // id unique per row; the other five fields as drawn.
                (["r\(index)" + fields[0]] + fields[1...]).map {
                    "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                .joined(separator: ",")
            }
            let path = folder.file(
                "r-\(UUID().uuidString).csv",
                "id,name,age,bio,photos,interests\n" + lines.joined(separator: "\n") + "\n")
            var importer = SQLiteImporter(store: store)
            importer.skipInvalid = true
            let summary = try importer.importProfiles(path: path)
            #expect(summary.inserted + summary.updated + summary.rejected.count == rows.count)
            #expect(try store.connection.statement("PRAGMA integrity_check").bind().first { $0.text(0) } == "ok")
            #expect(try store.connection.scalarInt("SELECT count(*) FROM profiles") == summary.inserted)
        }
    }
}
