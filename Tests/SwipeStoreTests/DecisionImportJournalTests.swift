import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The decisions import's journal: an import
/// loses nothing it was not asked to change, and counts what it refuses.
@Suite struct DecisionImportJournalTests {
    let stores = TestStores("swipe-trust-import")
    var folder: TemporaryFolder { stores.folder }

    func importer(_ store: any SwipeDatabase, skipInvalid: Bool = false) -> DatabaseImport {
        importing(store, skipInvalid: skipInvalid)
    }

    // MARK: - Item 2: a repeated id within one file

    @Test(arguments: TestBackend.all) func aRepeatedIdIsARowErrorNamingBothLinesAndNothingIsImported(
        _ backend: TestBackend
    ) throws {
        let store = try stores.store(backend)
        let csv = folder.file("dup.csv", "id,name,age\nb-1,Ok,30\nc,C,40\nb-1,Again,31\n")
        let failure = try #require(throws: ImportFailure.self) { try importer(store).importProfiles(path: csv) }
        #expect(
            failure.issues.map(\.description)
                == [csv + ":4: column id: value \"b-1\": id repeats line 2; an id may appear once per file"])
        #expect(failure.total == 1)
        #expect(try store.stats().profiles == 0)
    }

    @Test(arguments: TestBackend.all) func skipInvalidKeepsTheFirstAndRejectsTheLater(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        let csv = folder.file("dup.csv", "id,name,age\nb-1,Ok,30\nb-1,Again,31\nb-1,Third,32\n")
        let summary = try importer(store, skipInvalid: true).importProfiles(path: csv)
        #expect((summary.inserted, summary.updated) == (1, 0))
        #expect(summary.rejected.map(\.line) == [3, 4])
        #expect(
            summary.rejected.map(\.message).allSatisfy { $0 == "id repeats line 2; an id may appear once per file" })
        #expect(try store.profile(id: "b-1")?.name == "Ok")
    }

    @Test(arguments: TestBackend.all) func idsAreComparedAfterTheImportersTrimming(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        // A tab, spaces and U+00A0 (NO-BREAK SPACE, category Zs) around the id.
        let csv = folder.file("dup.csv", "id,name,age\nb-1,Ok,30\n\" \tb-1\u{A0}\",Again,31\nb-10,Other,33\n")
        let failure = try #require(throws: ImportFailure.self) { try importer(store).importProfiles(path: csv) }
        #expect(failure.issues.map(\.line) == [3])
        #expect(failure.issues.first?.value == "b-1")
    }

    @Test(arguments: TestBackend.all) func aRowRejectedForAnotherReasonDoesNotClaimItsId(_ backend: TestBackend) throws
    {
        let store = try stores.store(backend)
        let csv = folder.file("dup.csv", "id,name,age\nb-1,Young,12\nb-1,Adult,30\n")
        let summary = try importer(store, skipInvalid: true).importProfiles(path: csv)
        #expect(summary.rejected.map(\.line) == [2])
        #expect(try store.profile(id: "b-1")?.name == "Adult")
    }

    @Test(arguments: TestBackend.all) func reImportingAcrossFilesStaysAnUpdate(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        _ = try importer(store).importProfiles(path: folder.file("a.csv", "id,name,age\nb-1,Ok,30\n"))
        let summary = try importer(store).importProfiles(path: folder.file("b.csv", "id,name,age\nb-1,Again,31\n"))
        #expect((summary.inserted, summary.updated) == (0, 1))
        #expect(try store.profile(id: "b-1")?.name == "Again")
    }

    // MARK: - Item 3: an update changes only the columns the file has

    static let full = """
        id,name,age,gender,city,bio,photos,interests
        p00001,Ana,30,female,Lisboa,"Hi,
        there",https://p.example/a.jpg;https://p.example/b.jpg,chess;jazz
        p00002,Ben,41,male,Porto,Bio,https://p.example/c.jpg,surf

        """

    @Test(arguments: TestBackend.all) func reImportingFewerColumnsKeepsTheOthers(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        _ = try importer(store).importProfiles(path: folder.file("full.csv", Self.full))
        let summary = try importer(store).importProfiles(
            path: folder.file("part.csv", "id,name,age\np00001,Renamed,40\np00003,New,22\n"))
        #expect((summary.inserted, summary.updated) == (1, 1))
        #expect(
            try store.profile(id: "p00001")
                == Profile(
                    id: "p00001", name: "Renamed", age: 40, gender: "female", city: "Lisboa", bio: "Hi,\nthere",
                    photos: ["https://p.example/a.jpg", "https://p.example/b.jpg"], interests: ["chess", "jazz"]))
        #expect(try store.profile(id: "p00003") == Profile(id: "p00003", name: "New", age: 22))
        #expect(try store.profile(id: "p00002")?.city == "Porto")
    }

    @Test(arguments: TestBackend.all) func aColumnTheFileHasIsWrittenEvenWhenEmpty(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        _ = try importer(store).importProfiles(path: folder.file("full.csv", Self.full))
        _ = try importer(store).importProfiles(
            path: folder.file("part.csv", "city,id,name,age,photos\n,p00001,Ana,30,\n"))
        let profile = try #require(try store.profile(id: "p00001"))
        #expect(profile.city == nil)
        #expect(profile.photos == [])
        #expect(profile.gender == "female")
        #expect(profile.interests == ["chess", "jazz"])
    }

    /// The chunked path: many known ids, so updates go through the row-by-row upsert.
    @Test(arguments: TestBackend.all) func manyUpdatesWithFewerColumnsKeepEveryOtherColumn(_ backend: TestBackend)
        throws
    {
        let store = try stores.store(backend)
        let rows = (1...300).map { "id\($0),Name \($0),30,City \($0),bio \($0),https://p.example/p\($0).jpg" }
        _ = try importer(store).importProfiles(
            path: folder.file("a.csv", "id,name,age,city,bio,photos\n" + rows.joined(separator: "\n") + "\n"))
        let renames = (1...300).map { "id\($0),New \($0),31" }
        let summary = try importer(store).importProfiles(
            path: folder.file("b.csv", "id,name,age\n" + renames.joined(separator: "\n") + "\n"))
        #expect((summary.inserted, summary.updated) == (0, 300))
        for index in [1, 64, 65, 200, 300] {
            let profile = try #require(try store.profile(id: "id\(index)"))
            #expect(
                (profile.name, profile.age, profile.city, profile.bio, profile.photos)
                    == ("New \(index)", 31, "City \(index)", "bio \(index)", ["https://p.example/p\(index).jpg"]))
        }
    }

    // MARK: - Item 10: every conflicting decision is counted, in both modes

    /// 50 standing likes by `v`, then a file of 120 decisions by `v` of
    /// which the 50 on the liked profiles conflict (hate, not like).
    func conflictingDecisions(_ backend: TestBackend) throws -> (any SwipeDatabase, String) {
        let store = try stores.store(backend, profiles: ["v"] + (0..<120).map { "t\($0)" })
        for index in 0..<50 { _ = try store.record(viewer: "v", profile: "t\(index)", decision: .like, via: .button) }
        let rows = (0..<120).map { "v,t\($0),hate,2026-11-20T10:00:00.000Z" }
        return (
            store, folder.file("d.csv", "viewer,profile,decision,decided_at\n" + rows.joined(separator: "\n") + "\n")
        )
    }

    @Test(arguments: TestBackend.all) func everyConflictIsCountedWithoutSkipInvalid(_ backend: TestBackend) throws {
        let (store, csv) = try conflictingDecisions(backend)
        let failure = try #require(throws: ImportFailure.self) { try importer(store).importDecisions(path: csv) }
        #expect(failure.total == 50)
        #expect(failure.issues.count == ImportFailure.shownLimit)
        #expect(failure.description.contains("and 30 more"))
        #expect(failure.description.contains("nothing imported (50 invalid rows"))
        #expect(try store.stats().decisions == 50)
    }

    @Test(arguments: TestBackend.all) func everyConflictIsRejectedWithSkipInvalid(_ backend: TestBackend) throws {
        let (store, csv) = try conflictingDecisions(backend)
        let summary = try importer(store, skipInvalid: true).importDecisions(path: csv)
        #expect(summary.rejected.count == 50)
        #expect(summary.rejected.map(\.line) == Array(2...51))
        #expect(summary.inserted == 70)
    }

    /// A conflict with an earlier row of the same file, after the first bad
    /// row, was not seen when the doomed import stopped writing.
    @Test(arguments: TestBackend.all) func aConflictWithAnEarlierRowAfterTheFirstErrorIsCounted(_ backend: TestBackend)
        throws
    {
        let store = try stores.store(backend, profiles: ["v", "a", "b"])
        let csv = folder.file(
            "d.csv",
            """
            viewer,profile,decision,decided_at
            v,nobody,like,2026-11-20T10:00:00.000Z
            v,a,like,2026-11-20T10:00:00.000Z
            v,a,hate,2026-11-20T11:00:00.000Z

            """)
        let failure = try #require(throws: ImportFailure.self) { try importer(store).importDecisions(path: csv) }
        #expect(failure.issues.map(\.line) == [2, 4])
    }

    // MARK: - Item 12: a decisions import keeps WAL; readers never wait for it

    @Test func aDecisionsImportStaysInWALWhileAProfileImportLeavesIt() throws {
        let store = try folder.store(profiles: ["v", "a"])
        var modes: [String] = []
        var importer = SQLiteImporter(store: store)
        importer.progressInterval = 1
        importer.progress = { _ in
            modes.append((try? store.connection.statement("PRAGMA journal_mode").bind().first { $0.text(0) }) ?? "?")
        }
        _ = try importer.importDecisions(
            path: folder.file("d.csv", "viewer,profile,decision,decided_at\nv,a,like,2026-11-20T10:00:00Z\n"))
        #expect(modes.first == "wal")
        modes = []
        _ = try importer.importProfiles(path: folder.file("p.csv", "id,name,age\nb,B,30\n"))
        #expect(modes.first == "delete")
    }
}
