import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipePostgres

/// The PostgreSQL feed is fetched by index (README "Discovery"): the plans
/// PostgreSQL keeps for its prepared statements (generic plans, made without
/// the values, forced here as a session reuses them) walk indexes in order
/// and stop early, however selective the viewer; no sequential scan, no
/// bitmap of a whole cell, no sort of a whole range, for any of them.
@Suite(.needsPostgres) struct FeedPlanTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    /// 20k profiles around 40 cities (a few very large), decisions, blocks
    /// and cursors for many viewers, analysed: enough rows that the planner
    /// chooses as it would in production.
    func populated() throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(FeedModelTests.schema)
        try connection.execute(
            """
            SELECT setseed(0.42);
            INSERT INTO profiles (id, name, age, gender, lat, lon, seeking, age_min, age_max, max_km)
            SELECT 'p' || n, 'P', 18 + n % 43, CASE WHEN n % 2 = 0 THEN 'f' ELSE 'm' END,
                   c.lat + (random() - 0.5) / 5, c.lon + (random() - 0.5) / 5,
                   CASE n % 10 WHEN 0 THEN NULL WHEN 1 THEN 'f;m' ELSE CASE WHEN n % 2 = 0 THEN 'm' ELSE 'f' END END,
                   greatest(18, 18 + n % 43 - 8), least(120, 18 + n % 43 + 8),
                   CASE WHEN n % 3 = 0 THEN NULL ELSE (ARRAY[5, 25, 50, 300])[1 + n % 4] END
            FROM generate_series(1, 20000) AS n
            JOIN LATERAL (SELECT 10 + (n % (1 + n % 40)) * 1.9 AS lat, 20 + (n % (1 + n % 40)) * 2.3 AS lon) AS c ON true;
            INSERT INTO decisions (viewer, profile, decision, via, decided_at)
            SELECT 1 + n % 5000, 1 + (n * 7919) % 20000, (ARRAY['like', 'hate', 'superlike'])[1 + n % 3], 'drag',
                   '2026-11-' || lpad((10 + n % 10)::text, 2, '0') || 'T00:00:00.000Z'
            FROM generate_series(1, 30000) AS n
            WHERE 1 + n % 5000 <> 1 + (n * 7919) % 20000
            ON CONFLICT DO NOTHING;
            INSERT INTO blocks (blocker, blocked, blocked_at)
            SELECT 1 + n, 1 + (n * 31) % 20000, '2026-11-20T00:00:00.000Z' FROM generate_series(1, 3000) AS n
            WHERE 1 + n <> 1 + (n * 31) % 20000;
            INSERT INTO feed_cursors SELECT n, n * 2 FROM generate_series(1, 5000) AS n;
            INSERT INTO liker_cursors SELECT n, 'like', '2026-11-12T00:00:00.000Z', 0 FROM generate_series(1, 5000) AS n;
            -- Suspensions that ended (a moderated market): each candidate's probe is one descent of its key.
            INSERT INTO suspensions (profile, reason, banned_at, ends_at, banned_by)
            SELECT 1 + (n * 13) % 20000, 'spam', '2026-10-01T00:00:00.000Z', '2026-10-08T00:00:00.000Z', 'operator'
            FROM generate_series(1, 1000) AS n ON CONFLICT DO NOTHING;
            -- A fit of the ranking's model (README "Ranking") for most of them, as after a refit.
            INSERT INTO rank_fit (profile, appeal, generosity)
            SELECT n, (n % 7) * 0.1, (n % 5) * -0.1 FROM generate_series(1, 15000) AS n;
            ANALYZE;
            SET plan_cache_mode = force_generic_plan;
            """)
        return connection
    }

    /// The plan of `sql` run with `arguments`, as text.
    func plan(_ connection: PGConnection, _ name: String, _ sql: String, _ arguments: [PostgresValue]) throws -> String
    {
        try connection.execute("PREPARE " + name + " AS " + sql)
        let literals = arguments.map(\.description).joined(separator: ", ")
        return try connection.query("EXPLAIN EXECUTE " + name + "(" + literals + ")").map { try $0.text(0) }
            .joined(separator: "\n")
    }

    func viewer(_ connection: PGConnection, _ profile: Profile) throws -> PostgresDiscoveryViewer {
        try FeedModelTests.insert(profile, connection)
        try connection.execute("ANALYZE profiles")
        return try #require(try PostgresDiscoveryViewer.read(connection, id: profile.id))
    }

    static func expectIndexedOnly(_ plan: String, using indexes: [String], _ what: String) {
        for index in indexes { #expect(plan.contains(index), "\(what) does not use \(index):\n\(plan)") }
        #expect(!plan.contains("Seq Scan"), "\(what) scans a table:\n\(plan)")
        #expect(!plan.contains("Bitmap"), "\(what) reads a whole range by bitmap:\n\(plan)")
    }

    @Test func theWalksReadIndexesInOrderAndStopEarly() throws {
        let connection = try populated()
        // A narrow viewer in the largest city, with a box of a few cells.
        let narrow = try viewer(
            connection,
            Profile(
                id: "v-narrow", name: "V", age: 30, gender: "m", location: Location(lat: 10, lon: 20),
                preferences: Preferences(seeking: ["f"], ageMin: 29, ageMax: 31, maxKm: 60)))
        let cells = try #require(narrow.box.flatMap { Discovery.cells(covering: $0) })
        #expect(cells.count > 1)
        let inCells = try plan(
            connection, "in_cells", PostgresDiscoverySQL.inCells(count: cells.count),
            narrow.arguments(.int(0), .int(4)) + cells.map { PostgresValue.int($0) })
        Self.expectIndexedOnly(inCells, using: ["Index Scan using profiles_cell_key"], "the walk by cell")
        // The cells' ordered walks merged as they are read: nothing sorted, no cell read further than the merge asks.
        #expect(inCells.contains("Merge Append"), "the cells are not merged as read:\n\(inCells)")
        #expect(
            inCells.components(separatedBy: "Index Scan using profiles_cell_key").count == cells.count + 1,
            "one walk per cell:\n\(inCells)")
        #expect(!inCells.contains("Sort  ("), "the walk by cell sorts:\n\(inCells)")

        let open = try viewer(connection, Profile(id: "v-open", name: "O", age: 30, gender: "m"))
        let byKey = try plan(connection, "by_key", PostgresDiscoverySQL.byKey, open.arguments(.int(0), .int(4)))
        Self.expectIndexedOnly(byKey, using: ["Index Scan using profiles_pkey"], "the walk by key")
        #expect(!byKey.contains("Sort"), "the walk by key sorts:\n\(byKey)")

        // The ranking's second source: a bounded range of the activity index, newest first.
        try connection.execute(
            "UPDATE rank_stats SET last_active_at = '2026-11-2' || (profile % 10)::text WHERE profile % 3 = 0; ANALYZE rank_stats"
        )
        let recent = try plan(connection, "recent", PostgresDiscoverySQL.recentlyActive, open.arguments(.int(200)))
        Self.expectIndexedOnly(recent, using: ["rank_stats_active", "profiles_pkey"], "the recently active")
        #expect(!recent.contains("Sort"), "the recently active are sorted:\n\(recent)")
        // The market sample of the ranking's prior: the same range, its counts read with it, each
        // gender by key (joined to rank_stats again, it hashed the whole table, 25 ms at 1M).
        let market = try plan(connection, "market", PostgresDiscoverySQL.marketSample, [.int(1000)])
        Self.expectIndexedOnly(market, using: ["rank_stats_active", "profiles_pkey"], "the market sample")
        #expect(!market.contains("Hash"), "the market sample hashes a table:\n\(market)")
        #expect(!market.contains("Sort"), "the market sample is sorted:\n\(market)")
        #expect(byKey.contains("rank_stats_pkey"), "the walk by key reads the stats by key:\n\(byKey)")
        #expect(byKey.contains("rank_fit_pkey"), "the walk by key reads the fit by key:\n\(byKey)")

        let likers = try plan(
            connection, "likers", PostgresDiscoverySQL.likers,
            open.arguments(.text("like"), .text(""), .int(0), .int(4)))
        Self.expectIndexedOnly(likers, using: ["decisions_likers_key"], "the likers")
        #expect(!likers.contains("Sort"), "the likers are sorted:\n\(likers)")

        for (name, sql, arguments) in [
            (
                "last_like_before", PostgresDiscoverySQL.lastLikeBefore,
                [PostgresValue.int(7), .text("like"), .text("2026-11-15T00:00:00.000Z"), .int(99)]
            ),
            ("last_like", PostgresDiscoverySQL.lastLike, [.int(7), .text("like")]),
        ] {
            let backwards = try plan(connection, name, sql, arguments)
            Self.expectIndexedOnly(backwards, using: ["Backward using decisions_likers_key"], name)
            #expect(!backwards.contains("Sort"), "\(name) sorts:\n\(backwards)")
        }
        // A queued card of the batch, checked eligible now: one lookup by key.
        let one = try plan(connection, "one", PostgresDiscoverySQL.one, open.arguments(.int(7)))
        Self.expectIndexedOnly(one, using: ["profiles_pkey"], "a queued card's check")
        let state = try plan(connection, "feed_state", PostgresDiscoverySQL.feedState, [.text("v-open")])
        Self.expectIndexedOnly(state, using: ["decisions_likers_key", "profiles_id_key"], "the feed's state")
        // A card from the batch: the state by the viewer's key and the card's check, one statement.
        let next = try plan(
            connection, "feed_state_and_next", PostgresDiscoverySQL.feedStateAndNext, open.arguments(.int(7)))
        Self.expectIndexedOnly(next, using: ["decisions_likers_key", "profiles_pkey"], "the state with the next card")
        #expect(!next.contains("Sort"), "the state with the next card sorts:\n\(next)")
    }

    /// Tab completion reads ids off the unique index in byte order. A
    /// database made before `profiles.id` became `COLLATE "C"` sorts the
    /// whole table for it instead, until an import brings the column up to date.
    @Test func completionReadsTheIdIndexOnceAnImportBringsAnOlderSchemaUpToDate() throws {
        let connection = try populated()
        // The analysts' views (version 7) read the column: taken away around
        // the change and made again, as a database made that way and then
        // migrated to version 7 has them.
        try connection.execute(
            #"DROP VIEW match_history; DROP VIEW decision_log; ALTER TABLE profiles ALTER COLUMN id TYPE text COLLATE "default"; ANALYZE profiles"#
        )
        try connection.execute(PostgresSchema.analystViews)
        let before = try plan(
            connection, "ids_before", PostgresStore.profileIDsSQL(.postgresql), [.text("p12"), .int(50)])
        #expect(before.contains("Sort"), "the older schema's plan: \(before)")

        try connection.execute("RESET plan_cache_mode")
        let store = try PostgresStore(uri: database.uri, create: false)
        let csv = NSTemporaryDirectory() + "swipe-collation-\(UUID().uuidString).csv"
        try "id,name,age\nzz-new,New,30\n".write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        _ = try store.importProfiles(path: csv, options: ImportOptions())
        #expect(
            try connection.scalarText(
                """
                SELECT c.collname FROM pg_attribute AS a JOIN pg_collation AS c ON c.oid = a.attcollation
                WHERE a.attrelid = 'profiles'::regclass AND a.attname = 'id'
                """) == "C")
        // The views were made again around the change, and read the new row.
        #expect(try connection.scalarInt("SELECT count(*) FROM decision_log") ?? 0 > 0)
        #expect(
            try connection.scalarText("SELECT name FROM profiles WHERE id = $1", .text("zz-new")) == "New"
                && connection.scalarInt(
                    "SELECT count(*) FROM pg_views WHERE viewname IN ('decision_log', 'match_history')") == 2
        )

        try connection.execute("ANALYZE profiles; SET plan_cache_mode = force_generic_plan")
        let after = try plan(
            connection, "ids_after", PostgresStore.profileIDsSQL(.postgresql), [.text("p12"), .int(50)])
        #expect(after.contains("Index Only Scan") || after.contains("Index Scan"), "\(after)")
        #expect(!after.contains("Sort"), "\(after)")
        #expect(try store.profileIDs(startingWith: "p12", limit: 3) == ["p12", "p120", "p1200"])
    }
}
