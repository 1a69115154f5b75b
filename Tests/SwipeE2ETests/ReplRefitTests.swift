import Foundation
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// A REPL that opens on a stale ranking fit refits it on a connection of its
/// own while the session runs (README "Ranking"), on either backend: the
/// deck answers as before, and by the time the process ends the fit reads
/// the ledger through its newest decision.
@Suite final class ReplRefitTests {
    let temporary = TemporaryFolder("swipe-repl-refit")
    let stores = TestStores("swipe-repl-refit")

    @Test(arguments: TestBackend.all)
    func aStaleFitIsRefittedByTheTimeTheSessionEnds(_ backend: TestBackend) throws {
        let db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let seed = CrashRecoveryTests.repository + "/seed/"
        for file in ["profiles.csv", "decisions.csv"] {
            let arguments = file == "decisions.csv" ? ["--decisions", seed + file] : [seed + file]
            let imported = try SwipeBinary.run(["import", "--db", db] + arguments)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let store: any SwipeDatabase =
            backend == .sqlite ? try SQLiteStore(path: db, create: false) : try stores.open(backend, create: false)
        let live = try LiveSchema(store)
        // The import refitted; forgetting it leaves the state an upgrade from
        // version 7 leaves: never fitted, with decisions to fit.
        #expect(try !store.rankingFitIsStale(every: Ranking.refitEvery))
        try live.run("DELETE FROM rank_fit")
        try live.run("UPDATE rank_fit_mean SET mean = NULL, decisions = 0, through = 0")
        #expect(try store.rankingFitIsStale(every: Ranking.refitEvery))
        let newest = try live.count("SELECT max(key) AS n FROM decisions")
        let standing = try live.count("SELECT count(*) AS n FROM decisions WHERE undone_at IS NULL")

        let script = temporary.file("script.txt", "hate\nlike\nquit\n")
        let result = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "demo"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 3)
        #expect(answers.allSatisfy { $0.contains("\"ok\":true") }, "\(result.stdout)")
        #expect(!result.stderr.contains("refit failed"), "\(result.stderr)")

        // The two decisions of the session may land before or after the
        // refit read the ledger; the fit covers at least what was there.
        #expect(try live.count("SELECT count(*) AS n FROM rank_fit_mean WHERE mean IS NOT NULL") == 1)
        #expect(try live.count("SELECT through AS n FROM rank_fit_mean") >= newest)
        #expect(try live.count("SELECT decisions AS n FROM rank_fit_mean") >= standing)
        #expect(try live.count("SELECT count(*) AS n FROM rank_fit") > 0)
    }
}
