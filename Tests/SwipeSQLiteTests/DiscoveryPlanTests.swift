import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The feed is fetched by index however selective the preferences (README
/// "Discovery"): each query's plan, on a database with enough rows and
/// statistics for the planner to have choices, searches and never scans
/// the profiles or the viewer's decisions.
///
/// Serialized: the tests share one connection, which is not thread-safe.
@Suite(.serialized) struct DiscoveryPlanTests {
    nonisolated(unsafe) static let store: SQLiteStore = {
        let folder = TemporaryFolder()
        let store = try! SQLiteStore(path: folder.path + "/plans.sqlite")
        try! store.connection.writeTransaction {
            for n in 0..<3000 {
                let location = n % 10 == 0 ? nil : Location(lat: Double(n % 50), lon: Double(n % 70))
                try store.upsert(
                    Profile(
                        id: "p\(n)", name: "P", age: 18 + n % 60, gender: ["f", "m", "x"][n % 3], location: location,
                        preferences: Preferences(
                            seeking: n % 4 == 0 ? [] : ["f"], ageMin: 20, ageMax: 60,
                            maxKm: n % 5 == 0 ? nil : 100)))
            }
            let decide = try store.connection.statement(
                """
                INSERT INTO decisions (viewer, profile, decision, via, decided_at)
                VALUES (?1, ?2, 'like', 'drag', '2026-11-20T00:00:00.000Z')
                """)
            for key in 2..<1500 { try decide.bind(.int(1), .int(key)).run() }
            for key in 1500..<2500 { try decide.bind(.int(key), .int(1)).run() }
            try store.connection.execute("INSERT INTO blocks VALUES (1, 2999, '2026-11-20T00:00:00.000Z')")
        }
        try! store.connection.execute("ANALYZE")
        _ = folder  // the folder lives as long as the process: the store stays open
        return store
    }()

    static func plan(_ sql: String, _ extra: SQLiteValue) throws -> String {
        let viewer = try store.discoveryViewer(key: 1)
        return try store.connection.statement("EXPLAIN QUERY PLAN " + sql).bind(viewer.parameters(extra))
            .map { $0.text(3) }.joined(separator: "\n")
    }

    /// No full scan of a table (a `SCAN` of a json_each list of genders or
    /// cells is no scan of data).
    static func expectNoTableScan(_ plan: String) {
        for line in plan.split(separator: "\n") where line.contains("SCAN") {
            #expect(line.contains("json_each"), "plan:\n\(plan)")
        }
    }

    /// "Has the viewer decided this one?" and "is there a block?" are each
    /// one probe of an index on both keys, never a walk of the viewer's history.
    static func expectProbes(_ plan: String) {
        let decided = plan.split(separator: "\n").filter { $0.contains("SEARCH d USING") }
        #expect(
            decided.count == 1 && decided[0].contains("profile=? AND viewer=?")
                || decided[0].contains("viewer=? AND profile=?"),
            "plan:\n\(plan)")
        #expect(
            plan.split(separator: "\n").filter { $0.contains("SEARCH b USING PRIMARY KEY (blocker=? AND blocked=?)") }
                .count == 2,
            "plan:\n\(plan)")
    }

    @Test func likersAreOneRangeOfTheLikersIndex() throws {
        let plan = try Self.plan(DiscoverySQL.likers, .text("like"))
        #expect(
            plan.contains("SEARCH l USING INDEX decisions_likers (profile=? AND decision=? AND decided_at>?)"),
            "plan:\n\(plan)")
        #expect(plan.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "plan:\n\(plan)")
        Self.expectNoTableScan(plan)
        Self.expectProbes(plan)
    }

    @Test func theRestWalksTheKeyFromTheCursor() throws {
        let plan = try Self.plan(DiscoverySQL.byKey, .int(0))
        #expect(plan.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid>?)"), "plan:\n\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "plan:\n\(plan)")
        Self.expectNoTableScan(plan)
        Self.expectProbes(plan)
    }

    @Test func aSmallBoxIsAFewRangesOfTheCellIndex() throws {
        let viewer = try Self.store.discoveryViewer(key: 2)  // p1: at (1, 1), within 100 km
        let box = try #require(viewer.box)
        let cells = try #require(Discovery.cells(covering: box))
        let plan = try Self.store.connection.statement("EXPLAIN QUERY PLAN " + DiscoverySQL.inCell)
            .bind(viewer.parameters(.int(0)) + [.int(cells[0])])
            .map { $0.text(3) }.joined(separator: "\n")
        #expect(plan.contains("SEARCH p USING INDEX profiles_cell (<expr>=? AND rowid>?)"), "plan:\n\(plan)")
        // Already in key order: no sort, so rows are read only as far as needed.
        #expect(!plan.contains("TEMP B-TREE"), "plan:\n\(plan)")
        Self.expectNoTableScan(plan)
        Self.expectProbes(plan)
    }

    /// The ranking's second source: one bounded range of the activity index,
    /// newest first (no sort), then per row a lookup of the profile and of
    /// its stats by key and the usual probes; never a walk of everyone.
    @Test func theRecentlyActiveAreOneBoundedRangeOfTheActivityIndex() throws {
        #expect(
            try Self.store.connection.scalarInt("SELECT count(*) FROM rank_stats WHERE last_active_at IS NOT NULL") ?? 0
                > 100)
        let plan = try Self.plan(DiscoverySQL.recentlyActive, .int(200))
        #expect(plan.contains("SEARCH a USING COVERING INDEX rank_stats_active (last_active_at>?)"), "plan:\n\(plan)")
        #expect(plan.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        #expect(plan.contains("SEARCH r USING INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "plan:\n\(plan)")
        for line in plan.split(separator: "\n") where line.contains("SCAN") {
            #expect(
                line.contains("json_each") || line.contains("rank_stats_active") || line.contains("SCAN recent"),
                "plan:\n\(plan)")
        }
        Self.expectProbes(plan)
    }

    @Test func theWalksReadEachCandidatesStatsByKey() throws {
        for plan in [try Self.plan(DiscoverySQL.byKey, .int(0))] {
            #expect(plan.contains("SEARCH r USING INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        }
    }

    @Test func oneCandidateIsOneLookup() throws {
        let plan = try Self.plan(DiscoverySQL.one, .int(5))
        #expect(plan.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        Self.expectNoTableScan(plan)
    }

    /// The quota check reads the index alone, from the newest end of the
    /// viewer's decisions of one kind, and stops at the limit-th: no sort, no
    /// table row, no decision of another kind stepped over.
    @Test func quotaCheckIsOneRangeOfTheQuotaIndexFromItsNewestEnd() throws {
        let plan = try Self.store.connection.statement("EXPLAIN QUERY PLAN " + SQLiteStore.quotaSQL)
            .bind(.int(1), .text("like"), .text("2026-11-19T00:00:00.000Z"), .int(99)).map { $0.text(3) }
            .joined(separator: "\n")
        #expect(
            plan == "SEARCH decisions USING COVERING INDEX decisions_quota (viewer=? AND decision=? AND decided_at>?)",
            "plan:\n\(plan)")
    }
}
