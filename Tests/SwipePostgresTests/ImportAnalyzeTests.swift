import Foundation
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// An import leaves the planner's statistics current (issue 40): the tables
/// it wrote are analysed before it returns, so the first session after it is
/// planned from what is stored, not from the empty tables the schema made.
/// Read from the catalog: `pg_class.reltuples` (what the planner counts on,
/// -1 until a table is first analysed or vacuumed; exact for tables this
/// small, which ANALYZE reads whole) and `last_analyze` (a manual ANALYZE;
/// autovacuum's would be `last_autoanalyze`).
@Suite(.needsPostgres) struct ImportAnalyzeTests {
    let database: PostgresTestDatabase
    let folder = TemporaryFolder("swipe-pganalyze")
    init() throws { database = try PostgresTestDatabase() }

    /// (reltuples, analysed by hand) of `table`, from a new connection.
    func statistics(_ table: String) throws -> (rows: Double, analyzed: Bool) {
        let connection = try database.connect()
        let rows = try connection.query(
            """
            SELECT c.reltuples::float8, s.last_analyze IS NOT NULL
            FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_stat_user_tables AS s ON s.relid = c.oid
            WHERE c.oid = to_regclass($1)
            """, .text(table))
        let row = try #require(rows.first)
        return (try row.double(0), try row.bool(1))
    }

    @Test func profilesAndDecisionsImportsAnalyseWhatTheyWrote() throws {
        let store = try PostgresStore(uri: database.uri)
        // A first import makes the schema and a few rows; the second adds many more.
        let first = folder.file("first.csv", "id,name,age\np0,P0,30\np1,P1,31\n")
        #expect(try store.importProfiles(path: first, options: ImportOptions()).inserted == 2)
        let people = (2..<602).map { "p\($0),P\($0),\(18 + $0 % 60),,52.5,13.4,,,,\n" }.joined()
        let second = folder.file("second.csv", "id,name,age,gender,lat,lon,seeking,age_min,age_max,max_km\n" + people)
        #expect(try store.importProfiles(path: second, options: ImportOptions()).inserted == 600)
        let profiles = try statistics("profiles")
        #expect(profiles.rows == 602, "the planner counts \(profiles.rows) profiles of 602")
        #expect(profiles.analyzed)

        // Each of p0…p9 likes the next 50: 500 decisions.
        let likes = (0..<10).flatMap { viewer in
            (1...50).map { "p\(viewer),p\(viewer + $0),like,2026-11-20T10:00:00.000Z\n" }
        }.joined()
        let decisions = folder.file("decisions.csv", "viewer,profile,decision,decided_at\n" + likes)
        #expect(try store.importDecisions(path: decisions, options: ImportOptions()).inserted == 500)
        let ledger = try statistics("decisions")
        #expect(ledger.rows == 500, "the planner counts \(ledger.rows) decisions of 500")
        #expect(ledger.analyzed)
        let ranking = try statistics("rank_stats")
        #expect(ranking.rows == 60, "the planner counts \(ranking.rows) rank_stats rows of 60")
    }

    @Test func anImportThatChangesNothingLeavesTheStatisticsAlone() throws {
        let store = try PostgresStore(uri: database.uri)
        let file = folder.file("people.csv", "id,name,age\np0,P0,30\np1,P1,31\n")
        _ = try store.importProfiles(path: file, options: ImportOptions())
        let connection = try database.connect()
        try connection.execute("INSERT INTO profiles (id, name, age) VALUES ('q', 'Q', 40)")
        #expect(try store.importProfiles(path: file, options: ImportOptions()).inserted == 0)
        #expect(try statistics("profiles").rows == 2, "an unchanged re-import analysed the table again")
    }
}
