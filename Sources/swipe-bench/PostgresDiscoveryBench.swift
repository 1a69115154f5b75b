import Foundation
import SwipeCore
import SwipePostgres
import SwipeSQLite
import SwipeStore

/// Discovery on PostgreSQL (`--only discovery-postgres`; README
/// "Discovery", "PostgreSQL"): the same data as the SQLite discovery rows
/// (the CSV loaded with COPY, the template's decisions copied over), then the
/// next card for each benchmark viewer on PostgresFeed and on SQLiteFeed,
/// alternated, side by side; and the box search by the cell index against a
/// GiST index on `point`, the choice schema.postgres.sql explains.
struct PostgresDiscoveryBench {
    let data: DiscoveryData
    let swipe: String
    let uri: String
    let runs: Int
    let cardsPerRun: Int

    func run() throws -> [ReportRow] {
        try data.prepare(swipe: swipe)
        let store = try SQLiteStore(path: data.workDB)
        let name = "swipe_bench_discovery_" + data.label.lowercased()
        let database = try BenchDatabase.fresh(name, adminURI: uri)
        defer { BenchDatabase.drop(name, adminURI: uri) }
        let connection = try PGConnection(uri: database)
        let loadSeconds = try Clock.time {
            try load(connection, from: store)
            // The ranking's fit of the same decisions, as SQLite's template holds it.
            try PostgresStore(uri: database, create: false).refitRanking()
            try connection.execute("ANALYZE rank_fit")
        }
        log("discovery on postgres \(data.label): loaded in \(String(format: "%.1f", loadSeconds)) s")

        var contenders: [() throws -> Samples] = []
        var splits: [FetchSplit] = []
        for (viewer, _) in DiscoveryBench.viewers {
            let postgres = FetchSplit(), sqlite = FetchSplit()
            splits += [postgres, sqlite]
            contenders.append { try Self.walk(connection, viewer, cards: cardsPerRun, split: postgres) }
            contenders.append { try DiscoveryBench.walk(store, viewer, cards: cardsPerRun, split: sqlite) }
        }
        log(
            "discovery on postgres \(data.label): \(runs) alternated walks of up to \(cardsPerRun) cards per viewer and backend …"
        )
        let walks = try Alternation.run(runs: runs, contenders)
        var rows: [ReportRow] = []
        for (index, (_, what)) in DiscoveryBench.viewers.enumerated() {
            let postgres = walks[index * 2], sqlite = walks[index * 2 + 1]
            let p99 = splits[index * 2].batch.quantile(0.99)
            rows.append(
                ReportRow(
                    benchmark:
                        "next card on PostgreSQL vs SQLite (\(data.label)): \(what), \(postgres.pooled.count) cards",
                    swipe:
                        "all p50 \(duration(postgres.medianOfMedians)), p99 \(duration(postgres.pooled.quantile(0.99))); "
                        + splits[index * 2].description,
                    baseline:
                        "all p50 \(duration(sqlite.medianOfMedians)), p99 \(duration(sqlite.pooled.quantile(0.99))); "
                        + splits[index * 2 + 1].description,
                    ratio: postgres.medianOfMedians / sqlite.medianOfMedians, target: "p99 ≤ 2 ms (without a refill)",
                    met: p99 <= 2e-3))
        }
        rows += try fills(connection, store)
        rows += try cellsAgainstGiST(connection)
        return rows
    }

    /// The SQLite work copy's profiles and decisions, in key order, so each
    /// key means the same profile on both: the CSV by COPY (what `swipe
    /// import` stored from it), the decisions row by row.
    func load(_ connection: PGConnection, from store: SQLiteStore) throws {
        let schema = try String(contentsOfFile: "schema.postgres.sql", encoding: .utf8)
        try connection.execute(schema)
        try connection.transaction {
            guard let file = FileHandle(forReadingAtPath: data.csv) else { throw BenchError("cannot read \(data.csv)") }
            defer { try? file.close() }
            _ = try connection.copy(
                """
                COPY profiles (id, name, age, gender, lat, lon, seeking, age_min, age_max, max_km)
                FROM STDIN (FORMAT csv, HEADER true)
                """
            ) { writer in
                while let chunk = try file.read(upToCount: 256 * 1024), !chunk.isEmpty {
                    try chunk.withUnsafeBytes { try writer.write(raw: $0) }
                }
            }
            // The ranking's row trigger would update the heavy viewer's one
            // rank_stats row 200k times in this transaction, each update
            // walking the row's versions so far (quadratic: over 15 minutes
            // at 1M); off for the copy, rank_stats is then filled from the
            // ledger in one statement, as the schema's migration to version 3 does.
            try connection.execute("ALTER TABLE decisions DISABLE TRIGGER rank_stats_decided")
            _ = try connection.copy("COPY decisions (viewer, profile, decision, via, decided_at, undone_at) FROM STDIN")
            { writer in
                try store.connection.statement(
                    """
                    SELECT viewer, profile, decision, via, decided_at, undone_at FROM decisions ORDER BY key
                    """
                ).forEachRow { row in
                    try writer.row(
                        .int(row.int(0)), .int(row.int(1)), .text(row.text(2)), .text(row.text(3)),
                        .text(row.text(4)), row.isNull(5) ? .null : .text(row.text(5)))
                }
            }
            try connection.execute(
                """
                ALTER TABLE decisions ENABLE TRIGGER rank_stats_decided;
                INSERT INTO rank_stats (profile, given, given_likes, received, received_likes, last_active_at)
                SELECT p.key,
                       (SELECT count(*) FROM decisions AS d WHERE d.viewer = p.key AND d.undone_at IS NULL),
                       (SELECT count(*) FROM decisions AS d
                        WHERE d.viewer = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
                       (SELECT count(*) FROM decisions AS d WHERE d.profile = p.key AND d.undone_at IS NULL),
                       (SELECT count(*) FROM decisions AS d
                        WHERE d.profile = p.key AND d.undone_at IS NULL AND d.decision <> 'hate'),
                       (SELECT max(greatest(d.decided_at, coalesce(d.undone_at, ''))) FROM decisions AS d
                        WHERE d.viewer = p.key)
                FROM profiles AS p
                WHERE EXISTS (SELECT 1 FROM decisions AS d WHERE d.viewer = p.key)
                   OR EXISTS (SELECT 1 FROM decisions AS d WHERE d.profile = p.key)
                """)
        }
        try connection.execute("VACUUM ANALYZE")
        // The same keys on both sides, or the comparison means nothing.
        for (viewer, _) in DiscoveryBench.viewers {
            let here = try connection.scalarInt("SELECT key FROM profiles WHERE id = $1", .text(viewer))
            guard here == (try store.profileKey(id: viewer)) else {
                throw BenchError("\(viewer) has another key on PostgreSQL")
            }
        }
    }

    /// The refill on PostgreSQL beside SQLite's (`DiscoveryBench.fills`): a
    /// deck's fill of four cards from a new feed, per viewer, alternated.
    func fills(_ connection: PGConnection, _ store: SQLiteStore) throws -> [ReportRow] {
        func fill(_ make: @escaping () throws -> any ProfileFeed) -> () throws -> Samples {
            {
                var samples = Samples()
                for _ in 0..<10 {
                    let feed = try make()
                    samples.append(try Clock.time { _ = try feed.nextProfiles(limit: 4, excluding: []) })
                }
                return samples
            }
        }
        let contenders: [() throws -> Samples] = DiscoveryBench.viewers.flatMap { viewer, _ in
            [
                fill { try PostgresFeed(connection: connection, viewer: viewer) },
                fill { try SQLiteFeed(store: store, viewer: viewer) },
            ]
        }
        let results = try Alternation.run(runs: runs, contenders)
        return DiscoveryBench.viewers.enumerated().map { index, viewer in
            let postgres = results[index * 2], sqlite = results[index * 2 + 1]
            let ratio = postgres.pooled.quantile(0.99) / sqlite.pooled.quantile(0.99)
            return ReportRow(
                benchmark:
                    "refill on PostgreSQL vs SQLite (\(data.label)): a deck's 4 cards from a new feed, \(viewer.1) (p99)",
                swipe: "p50 \(duration(postgres.medianOfMedians)), p99 \(duration(postgres.pooled.quantile(0.99)))",
                baseline: "p50 \(duration(sqlite.medianOfMedians)), p99 \(duration(sqlite.pooled.quantile(0.99)))",
                ratio: ratio, target: "p99 ≤ 3× SQLite's", met: ratio <= 3)
        }
    }

    /// `DiscoveryBench.walk` on PostgreSQL: decide the top card (a plain
    /// INSERT, untimed), time the fetch of the next with three excluded; then
    /// remove the walk's decisions and restore the cursor.
    static func walk(
        _ connection: PGConnection, _ viewer: String, cards: Int, cellLimit: Int? = nil, split: FetchSplit? = nil
    ) throws -> Samples {
        guard let key = try connection.scalarInt("SELECT key FROM profiles WHERE id = $1", .text(viewer)) else {
            throw BenchError("no viewer \(viewer)")
        }
        let lastDecision = try connection.scalarInt("SELECT coalesce(max(key), 0) FROM decisions") ?? 0
        let cursor = try connection.scalarInt("SELECT after_key FROM feed_cursors WHERE viewer = $1", .int(key))
        let feed = try PostgresFeed(connection: connection, viewer: viewer, options: .init(cellLimit: cellLimit))
        var samples = Samples()
        var deck = try feed.nextProfiles(limit: 3, excluding: [])
        for _ in 0..<cards {
            guard let top = deck.first else { break }
            try connection.run(
                """
                INSERT INTO decisions (viewer, profile, decision, via, decided_at)
                VALUES ($1, (SELECT key FROM profiles WHERE id = $2), 'hate', 'drag', $3)
                """, .int(key), .text(top.id), .text(Timestamp.string(from: Date())))
            deck.removeFirst()
            let excluding = Set(deck.map(\.id))
            let refills = feed.dealer.refills
            let start = Clock.now()
            let next = try feed.nextProfiles(limit: 1, excluding: excluding)
            samples.append(Clock.now() - start)
            split?.file(samples.values.last!, refill: feed.dealer.refills > refills)
            deck += next
        }
        try connection.transaction {
            try connection.run("DELETE FROM decisions WHERE viewer = $1 AND key > $2", .int(key), .int(lastDecision))
            try connection.run("DELETE FROM feed_cursors WHERE viewer = $1", .int(key))
            if let cursor {
                try connection.run(
                    "INSERT INTO feed_cursors (viewer, after_key) VALUES ($1, $2)", .int(key), .int(cursor))
            }
        }
        return samples
    }

    /// A 50 km box's first places in key order (what the feed needs), by the
    /// cell index (one ordered range per cell, merged as read, as the feed's
    /// `PostgresDiscoverySQL.inCells` walks them) against a GiST index on
    /// `point(lon, lat)` (made here and dropped after), which finds the box's
    /// places in no useful order and so sorts them all. Both prepared, as
    /// the feed's statements are, and timed on their generic plans.
    func cellsAgainstGiST(_ c: PGConnection) throws -> [ReportRow] {
        try c.execute(
            "CREATE INDEX bench_places ON profiles USING gist (point(lon, lat)) WHERE lat IS NOT NULL; ANALYZE profiles"
        )
        defer { try? c.execute("DROP INDEX IF EXISTS bench_places") }
        let town = DiscoveryData.cities[DiscoveryData.cityCount - 1], dense = DiscoveryData.cities[0]
        var rows: [ReportRow] = []
        for (name, centre) in [("sparsest town", town), ("densest city", dense)] {
            let box = Discovery.box(around: Location(lat: centre.lat, lon: centre.lon), km: 50)
            let cells = Discovery.cells(covering: box) ?? []
            // The box's latitudes and (one range: neither city is near the
            // antimeridian) longitudes, the cursor (0: a new feed), the 8
            // wanted, then the cells. The cursor and the count are parameters,
            // as in the feed's own statement (`PostgresDiscoverySQL.inCells`):
            // with a constant LIMIT the generic plan reads a whole cell by
            // bitmap and sorts it (117.8 ms against 0.1 ms in the densest city).
            let arguments =
                Discovery.boxBounds(box).prefix(4).map { PostgresValue.real($0) } + [.int(0), .int(8)]
                + cells.map { .int($0) }
            // Per cell one ordered range of profiles_cell_key, each read only as far as the merge asks.
            let branches = cells.indices.map { index in
                """
                (SELECT p.key FROM profiles AS p
                 WHERE p.lat IS NOT NULL
                   AND (floor(p.lat + 90)::integer * 1000 + floor(p.lon + 180)::integer) = $\(7 + index)::integer
                   AND p.key > $5::bigint AND p.lat BETWEEN $1 AND $2 AND p.lon BETWEEN $3 AND $4
                 ORDER BY p.key LIMIT $6::bigint)
                """
            }
            let merged = branches.joined(separator: " UNION ALL ")
            let unused = cells.indices.map { "$\(7 + $0)::integer IS NOT NULL" }.joined(separator: " AND ")
            var inBox = 0
            func time(_ sql: String) -> () throws -> Samples {
                {
                    var samples = Samples()
                    // The first runs plan afresh with the values; a feed's session keeps the generic plan.
                    try c.execute("SET plan_cache_mode = force_generic_plan")
                    defer { try? c.execute("RESET plan_cache_mode") }
                    for _ in 0..<20 {
                        let start = Clock.now()
                        _ = try c.statement(sql).query(arguments)
                        samples.append(Clock.now() - start)
                    }
                    return samples
                }
            }
            inBox =
                try c.scalarInt(
                    """
                    SELECT count(*) FROM profiles WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4
                    """, arguments[0], arguments[1], arguments[2], arguments[3]) ?? 0
            let results = try Alternation.run(
                runs: runs,
                [
                    time(
                        "SELECT c.key FROM (SELECT * FROM (" + merged + ") AS cells ORDER BY key LIMIT $6::bigint) AS c"
                    ),
                    time(
                        """
                        SELECT p.key FROM profiles AS p
                        WHERE p.lat IS NOT NULL AND point(p.lon, p.lat) <@ box(point($3, $1), point($4, $2))
                          AND p.key > $5::bigint AND \(unused)
                        ORDER BY p.key LIMIT $6::bigint
                        """),
                ])
            let ratio = results[0].medianOfMedians / results[1].medianOfMedians
            rows.append(
                ReportRow(
                    benchmark:
                        "PostgreSQL 50 km box, \(name) (\(data.label), \(inBox) places): first 8 by key, cell index vs GiST on point",
                    swipe: "p50 \(duration(results[0].medianOfMedians))",
                    baseline: "p50 \(duration(results[1].medianOfMedians))",
                    ratio: ratio, target: "(measured)", met: nil))
        }
        return rows
    }

}
