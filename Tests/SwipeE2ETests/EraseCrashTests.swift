import Foundation
import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// kill -9 in the middle of `swipe erase` (Documentation/PersonalData.md):
/// all or nothing. The test kills it once it is seen inside its
/// transaction, with no sleep: on SQLite, where the person erased has
/// 150,000 decisions, once the transaction's pages spill into the WAL
/// (before any commit record); on PostgreSQL while its settings DELETE,
/// after every other table's, waits for a row the test holds locked.
@Suite final class EraseCrashTests {
    let temporary = TemporaryFolder("swipe-erase-crash")
    let stores = TestStores()
    static let decisions = 150_000

    /// v and `count` others, each liked by v, made by the database itself.
    func bigPerson(_ backend: TestBackend, count: Int = decisions) throws -> (db: String, live: LiveSchema) {
        let db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let people = temporary.file("v.csv", "id,name,age\nv,V,30\n")
        let imported = try SwipeBinary.run(["import", "--db", db, people])
        #expect(imported.status == 0, "\(imported.stderr)")
        let store: any SwipeDatabase =
            backend == .sqlite ? try SQLiteStore(path: db, create: false) : try stores.open(backend, create: false)
        let live = try LiveSchema(store)
        let series =
            backend == .sqlite
            ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count)) SELECT i FROM n"
            : "SELECT i FROM generate_series(1, \(count)) AS i"
        try live.run("INSERT INTO profiles (id, name, age) SELECT 'p' || i, 'P', 30 FROM (\(series)) AS s")
        try live.run(
            """
            INSERT INTO decisions (viewer, profile, decision, via, decided_at)
            SELECT v.key, p.key, 'like', 'import', '2026-11-20T10:00:00.000Z'
            FROM profiles AS v, profiles AS p WHERE v.id = 'v' AND p.id <> 'v'
            """)
        try live.run("INSERT INTO settings (name, value) VALUES ('last_viewer', 'v')")
        if backend == .sqlite {
            // An empty WAL, so that what the erase writes into it is seen growing.
            _ = try live.rows("PRAGMA wal_checkpoint(TRUNCATE)") { _ in 0 }
        }
        return (db, live)
    }

    func expectNothingErased(_ live: LiveSchema, count: Int = decisions) throws {
        let key = try #require(try live.key(of: "v"), "v is still there")
        #expect(try live.count("SELECT count(*) AS n FROM decisions WHERE viewer = $1", [.int(key)]) == count)
        #expect(try live.count("SELECT count(*) AS n FROM profiles") == count + 1)
        #expect(try live.count("SELECT count(*) AS n FROM settings WHERE name = 'last_viewer'") == 1)
    }

    @Test(.timeLimit(.minutes(3))) func killedMidEraseOnSQLiteLeavesEverything() throws {
        let (db, live) = try bigPerson(.sqlite)
        let wal = db + "-wal"
        func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 }
        let before = walSize()
        let child = try RunningSwipe(["erase", "--db", db, "--as", "v", "--yes"], folder: temporary.path)
        let inside = child.waitUntil { walSize() > before + 1_000_000 }
        #expect(inside, "the erase never spilled 1 MB into the WAL before it ended: \(child.stderr)")
        child.signal(SIGKILL)
        #expect(child.wait().signalled, "killed, not finished")
        #expect(try DatabaseCheck.integrity(db) == "ok")
        try expectNothingErased(live)
        // And the next erase works.
        let again = try SwipeBinary.run(["erase", "--db", db, "--as", "v", "--yes"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try live.key(of: "v") == nil)
    }

    @Test(.timeLimit(.minutes(3))) func killedMidEraseOnPostgreSQLLeavesEverything() throws {
        guard TestBackend.all.contains(.postgres) else { return }
        // Fewer rows: the lock, not the size, holds the erase mid-way (and
        // each row's trigger updates v's one rank_stats row, a growing chain).
        let (db, live) = try bigPerson(.postgres, count: 2_000)
        // The test holds the last_viewer row: the erase's settings DELETE,
        // after every other table's, waits for it.
        let holder = try PGConnection(uri: db)
        try holder.execute("BEGIN")
        try holder.execute("SELECT value FROM settings WHERE name = 'last_viewer' FOR UPDATE")
        let watcher = try PGConnection(uri: db)
        let child = try RunningSwipe(["erase", "--db", db, "--as", "v", "--yes"], folder: temporary.path)
        let waiting = child.waitUntil {
            let rows = try? watcher.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'DELETE FROM settings%'
                """)
            return ((try? rows?.first?.int(0)) ?? 0) > 0
        }
        #expect(waiting, "the erase never reached its settings DELETE: \(child.stderr)")
        child.signal(SIGKILL)
        #expect(child.wait().signalled)
        try holder.execute("ROLLBACK")
        try expectNothingErased(live, count: 2_000)
    }
}
