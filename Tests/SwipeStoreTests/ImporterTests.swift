import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

@Suite struct ImporterTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }

    @Test(arguments: TestBackend.all) func interruptionRollsEverythingBack(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["keep"])
        let rows = (1...50).map { "p\($0),P,30" }.joined(separator: "\n")
        var options = ImportOptions()
        var checks = 0
        options.shouldStop = {
            checks += 1
            return checks > 10  // stop before the 11th row, after 10 were written
        }
        #expect(throws: ImportInterrupted.self) {
            try store.importProfiles(path: folder.file("p.csv", "id,name,age\n" + rows), options: options)
        }
        #expect(try store.stats().profiles == 1)
        #expect(try store.profile(id: "p1") == nil)
        if let sqlite = store as? SQLiteStore { #expect(!sqlite.connection.isInTransaction) }
    }

    @Test(arguments: TestBackend.all) func decisionsImportMakesMatchesAndReportsLines(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        let good = folder.file(
            "d.csv",
            "profile,viewer,decided_at,decision\nb,a,2026-11-20T10:00:00.000Z,like\na,b,2026-11-20T11:00:00.000Z,like\n"
        )
        let summary = try store.importDecisions(path: good, options: ImportOptions())
        #expect(summary.inserted == 2)
        #expect(try store.matches(viewer: "a").map(\.matchedAt) == ["2026-11-20T11:00:00.000Z"])
        let bad = folder.file(
            "e.csv", "viewer,profile,decision,decided_at\na,zz,like,2026-11-20\na,b,love,2026-11-20\n")
        do {
            _ = try store.importDecisions(path: bad, options: ImportOptions())
            Issue.record("bad decisions were imported")
        } catch let failure as ImportFailure {
            #expect(failure.total == 2)
            #expect(failure.issues.map(\.line) == [2, 3])
            #expect(failure.issues.map(\.column) == ["profile", "decision"])
        }
    }

    /// `nope` is hate's other name everywhere a person names a decision,
    /// a decisions file included (any letter case); it is stored as `hate`.
    @Test(arguments: TestBackend.all) func decisionsImportTakesNopeAsHate(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b", "c"])
        let file = folder.file(
            "n.csv",
            "viewer,profile,decision,decided_at\na,b,nope,2026-11-20T10:00:00.000Z\na,c,NoPe,2026-11-20T10:00:01.000Z\n"
        )
        #expect(try store.importDecisions(path: file, options: ImportOptions()).inserted == 2)
        #expect(try store.history(HistoryQuery(viewer: "a")).map(\.decision) == [.hate, .hate])
    }

    /// A decision between two profiles one of whom blocked the other is a
    /// bad row naming its line (it used to end the whole import with the
    /// ledger's bare message, `--skip-invalid` or not).
    @Test func aBlockedPairIsABadRowNamingItsLine() throws {
        let store = try folder.store(profiles: ["a", "b", "c"])
        try store.block(viewer: "c", profile: "b")
        let file = folder.file(
            "blocked.csv",
            """
            viewer,profile,decision,decided_at
            a,b,like,2026-11-20
            b,c,like,2026-11-20
            a,c,hate,2026-11-20
            """)
        let failure = try #require(throws: ImportFailure.self) {
            try SQLiteImporter(store: store).importDecisions(path: file)
        }
        #expect(
            failure.description == """
                \(file):3: column profile: value "c": b and c are blocked from each other
                nothing imported (1 invalid row)
                """)
        var importer = SQLiteImporter(store: store)
        importer.skipInvalid = true
        let summary = try importer.importDecisions(path: file)
        #expect(summary.inserted == 2)
        #expect(summary.rejected.map(\.line) == [3])
        #expect(try store.connection.scalarInt("SELECT count(*) FROM decisions") == 2)
    }

    @Test func memoryStaysFlat() throws {
        // The reader holds one buffer: a file many times its size reads fine
        // with a 64-byte buffer, and every record keeps its line number.
        let rows = (1...2000).map { "p\($0),\"bio\nline\",30" }.joined(separator: "\n")
        let reader = try CSVReader(path: folder.file("big.csv", "id,bio,age\n" + rows), bufferSize: 64)
        var last: CSVRecord?
        while let record = try reader.next() { last = record }
        // Header on line 1; row n starts on line 2n (each row spans two lines).
        #expect(last?.line == 4000)
        #expect(reader.bytesRead == reader.fileSize)
    }
}
