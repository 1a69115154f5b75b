import Foundation
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore

/// Discovery benchmarks (`--only discovery`; README "Discovery"): the next
/// card for five kinds of viewer at each size, side by side; the small town
/// against the same query answered by a walk of every profile; the index of
/// 1-degree cells against an R*Tree and a composite (lat, lon) index for the same box; `likes` for a viewer
/// liked 10k times; the daily-quota check's share of a like; and the import
/// with the six new columns against the same rows without them.
struct DiscoveryBench {
    let sets: [DiscoveryData]
    let swipe: String
    let runs: Int
    let cardsPerRun: Int
    /// Which of `sections` to run: `discovery` is every row; `quota` and
    /// `discovery-import` are those rows alone, for a quick look at one target.
    var sections: Set<String> = ["discovery"]

    static let sections: Set<String> = ["discovery", "quota", "discovery-import"]

    static let viewers = [
        ("v-dense", "densest city, f 25–35, 50 km"), ("v-town", "sparsest town, f 25–35, 50 km"),
        ("v-narrow", "densest city, 2-year window, 5 km"), ("v-heavy", "200k decisions (20%)"),
        ("v-open", "unfiltered (no preferences, no place)"),
        ("v-liked", "liked 10k times (likers first)"),
    ]

    func run() throws -> [ReportRow] {
        var rows: [ReportRow] = []
        var stores: [(DiscoveryData, SQLiteStore)] = []
        for data in sets {
            try data.prepare(swipe: swipe)
            stores.append((data, try SQLiteStore(path: data.workDB)))
        }
        guard sections.contains("discovery") else {
            if sections.contains("quota") { for (data, store) in stores { rows.append(try quota(data, store)) } }
            if sections.contains("discovery-import") { for data in sets { rows.append(try importCost(data)) } }
            return rows
        }
        // Next card, every viewer at every size in the same rounds.
        var contenders: [() throws -> Samples] = []
        var splits: [FetchSplit] = []
        for (_, store) in stores {
            for (viewer, _) in Self.viewers {
                let split = FetchSplit()
                splits.append(split)
                contenders.append { try Self.walk(store, viewer, cards: cardsPerRun, split: split) }
            }
        }
        log("discovery next card: \(runs) alternated walks of up to \(cardsPerRun) cards per viewer …")
        let walks = try Alternation.run(runs: runs, contenders)
        var bySize: [String: [String: [Samples]]] = [:]
        for (setIndex, (data, _)) in stores.enumerated() {
            for (viewerIndex, (viewer, what)) in Self.viewers.enumerated() {
                let samples = walks[setIndex * Self.viewers.count + viewerIndex]
                let split = splits[setIndex * Self.viewers.count + viewerIndex]
                bySize[data.label, default: [:]][viewer] = samples
                let p99 = split.batch.quantile(0.99)
                rows.append(
                    ReportRow(
                        benchmark: "next card (\(data.label)): \(what), \(samples.pooled.count) cards",
                        swipe:
                            "all p50 \(duration(samples.medianOfMedians)), p99 \(duration(samples.pooled.quantile(0.99))); "
                            + split.description,
                        // A town whose every card came with a refill has no p99 to judge.
                        target: "p99 ≤ 1 ms (without a refill)", met: split.batch.count == 0 ? nil : p99 <= 1e-3))
            }
        }
        if let small = bySize["100k"], let large = bySize["1M"] {
            for (viewer, what) in Self.viewers {
                guard let a = small[viewer], let b = large[viewer] else { continue }
                let ratio = b.medianOfMedians / a.medianOfMedians
                rows.append(
                    ReportRow(
                        benchmark: "next card growth 100k → 1M: \(what)", swipe: "p50 \(duration(b.medianOfMedians))",
                        baseline: "p50 \(duration(a.medianOfMedians))", ratio: ratio, target: "≤ 1.5×",
                        met: ratio <= 1.5))
            }
        }
        rows += try fills(stores)
        for (data, store) in stores {
            rows += try townAgainstScan(data, store)
            rows += try treeAgainstCompositeIndex(data, store)
            rows.append(try likes(data, store))
            rows.append(try quota(data, store))
        }
        for data in sets { rows.append(try importCost(data)) }
        return rows
    }

    /// Walks `viewer`'s feed as a deck does (decide the top card, fetch the
    /// next with three excluded), timing each fetch; afterwards the walk's
    /// decisions are removed and the cursor restored, so every run is alike.
    /// With `split`, each fetch is also filed by whether it ranked a window (a refill).
    static func walk(
        _ store: SQLiteStore, _ viewer: String, cards: Int, cellLimit: Int? = nil, split: FetchSplit? = nil
    ) throws -> Samples {
        // cellLimit 0: the walk by key of every profile, the scan the cells spare.
        let c = store.connection
        let key = try store.profileKey(id: viewer)!
        let lastDecision = try c.scalarInt("SELECT coalesce(max(key), 0) FROM decisions") ?? 0
        let cursor = try c.scalarInt("SELECT after_key FROM feed_cursors WHERE viewer = ?1", .int(key))
        let feed = try SQLiteFeed(store: store, viewer: viewer, options: .init(cellLimit: cellLimit))
        var samples = Samples()
        var deck = try feed.nextProfiles(limit: 3, excluding: [])
        for _ in 0..<cards {
            guard let top = deck.first else { break }
            _ = try store.record(viewer: viewer, profile: top.id, decision: .hate, via: .drag)
            deck.removeFirst()
            let excluding = Set(deck.map(\.id))
            let refills = feed.dealer.refills
            let start = Clock.now()
            let next = try feed.nextProfiles(limit: 1, excluding: excluding)
            samples.append(Clock.now() - start)
            split?.file(samples.values.last!, refill: feed.dealer.refills > refills)
            deck += next
        }
        try c.writeTransaction {
            try c.statement("DELETE FROM decisions WHERE viewer = ?1 AND key > ?2").bind(.int(key), .int(lastDecision))
                .run()
            try c.statement("DELETE FROM feed_cursors WHERE viewer = ?1").bind(.int(key)).run()
            if let cursor {
                try c.statement("INSERT INTO feed_cursors (viewer, after_key) VALUES (?1, ?2)").bind(
                    .int(key), .int(cursor)
                ).run()
            }
        }
        return samples
    }

    /// The refill: a deck's fill of four cards from a new feed (stamping the
    /// viewer active, the likers, the ranked window read and ranked, the
    /// impressions counted), as a session opening or a page reloading asks
    /// for; each card after that is one `walk` times.
    func fills(_ stores: [(DiscoveryData, SQLiteStore)]) throws -> [ReportRow] {
        var contenders: [() throws -> Samples] = []
        for (_, store) in stores {
            for (viewer, _) in Self.viewers {
                contenders.append {
                    var samples = Samples()
                    for _ in 0..<10 {
                        let feed = try SQLiteFeed(store: store, viewer: viewer)
                        samples.append(try Clock.time { _ = try feed.nextProfiles(limit: 4, excluding: []) })
                    }
                    return samples
                }
            }
        }
        log("discovery deck fill: \(runs) alternated runs of 10 fills per viewer …")
        let results = try Alternation.run(runs: runs, contenders)
        var rows: [ReportRow] = []
        for (setIndex, (data, _)) in stores.enumerated() {
            for (viewerIndex, (_, what)) in Self.viewers.enumerated() {
                let samples = results[setIndex * Self.viewers.count + viewerIndex]
                rows.append(
                    ReportRow(
                        benchmark: "refill (\(data.label)): a deck's 4 cards from a new feed, \(what)",
                        swipe:
                            "p50 \(duration(samples.medianOfMedians)), p99 \(duration(samples.pooled.quantile(0.99)))",
                        target: "(measured)", met: nil))
            }
        }
        return rows
    }

    /// The small-town viewer's first card, by the cell index and by a walk of
    /// the profiles by key (what the query costs answered by a scan).
    func townAgainstScan(_ data: DiscoveryData, _ store: SQLiteStore) throws -> [ReportRow] {
        func first(_ cellLimit: Int?) -> () throws -> Samples {
            {
                var samples = Samples()
                for _ in 0..<20 {
                    samples.append(contentsOf: try Self.walk(store, "v-town", cards: 1, cellLimit: cellLimit))
                }
                return samples
            }
        }
        let results = try Alternation.run(runs: runs, [first(nil), first(0)])
        let ratio = results[1].medianOfMedians / results[0].medianOfMedians
        return [
            ReportRow(
                benchmark:
                    "small-town viewer (\(data.label)): next card by the cell index vs by a walk of every profile",
                swipe: "p50 \(duration(results[0].medianOfMedians))",
                baseline: "p50 \(duration(results[1].medianOfMedians))",
                ratio: ratio, target: "≥ 10× faster", met: ratio >= 10)
        ]
    }

    /// The places in a 50 km box, three ways: the schema's index of 1-degree
    /// cells (`profiles_cell`), an R*Tree and a composite (lat, lon) B-tree
    /// index (both made here for the comparison, and dropped after).
    func treeAgainstCompositeIndex(_ data: DiscoveryData, _ store: SQLiteStore) throws -> [ReportRow] {
        let c = store.connection
        try c.execute(
            """
            CREATE INDEX IF NOT EXISTS bench_lat_lon ON profiles (lat, lon);
            CREATE VIRTUAL TABLE IF NOT EXISTS bench_places USING rtree(key, lat_min, lat_max, lon_min, lon_max);
            DELETE FROM bench_places;
            INSERT INTO bench_places SELECT key, lat, lat, lon, lon FROM profiles WHERE lat IS NOT NULL;
            """)
        let town = DiscoveryData.cities[DiscoveryData.cityCount - 1], dense = DiscoveryData.cities[0]
        var rows: [ReportRow] = []
        for (name, centre) in [("sparsest town", town), ("densest city", dense)] {
            let box = Discovery.box(around: Location(lat: centre.lat, lon: centre.lon), km: 50)
            let lons = box.lons?.first ?? -180...180
            let cells = Discovery.cells(covering: box) ?? []
            let values: [SQLiteValue] = [
                .real(box.lats.lowerBound), .real(box.lats.upperBound),
                .real(lons.lowerBound), .real(lons.upperBound),
                .text("[" + cells.map(String.init).joined(separator: ",") + "]"),
            ]
            var found = 0
            func time(_ sql: String) -> () throws -> Samples {
                {
                    var samples = Samples()
                    for _ in 0..<20 {
                        let start = Clock.now()
                        found = try c.statement(sql).bind(values).first { $0.int(0) } ?? 0
                        samples.append(Clock.now() - start)
                    }
                    return samples
                }
            }
            // Each counts the box's places (the cells hold a few more: their corners).
            let results = try Alternation.run(
                runs: runs,
                [
                    time(
                        """
                        SELECT count(*) FROM profiles AS p
                        WHERE p.lat IS NOT NULL AND CAST(p.lat + 90 AS INTEGER) * 1000 + CAST(p.lon + 180 AS INTEGER)
                              IN (SELECT value FROM json_each(?5))
                          AND p.lat BETWEEN ?1 AND ?2 AND p.lon BETWEEN ?3 AND ?4
                        """),
                    time(
                        """
                        SELECT count(*) FROM bench_places WHERE lat_min <= ?2 AND lat_max >= ?1 AND lon_min <= ?4 AND lon_max >= ?3
                          AND ?5 IS NOT NULL
                        """),
                    time(
                        """
                        SELECT count(*) FROM profiles INDEXED BY bench_lat_lon
                        WHERE lat BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?4 AND ?5 IS NOT NULL
                        """),
                ])
            for (other, index) in [("R*Tree", 1), ("composite (lat, lon) index", 2)] {
                let ratio = results[0].medianOfMedians / results[index].medianOfMedians
                rows.append(
                    ReportRow(
                        benchmark: "50 km box, \(name) (\(data.label), \(found) places): cell index vs \(other)",
                        swipe: "p50 \(duration(results[0].medianOfMedians))",
                        baseline: "p50 \(duration(results[index].medianOfMedians))", ratio: ratio, target: "(measured)",
                        met: nil))
            }
        }
        try c.execute("DROP INDEX bench_lat_lon; DROP TABLE bench_places")
        return rows
    }

    /// `likes` for a viewer liked 10k times.
    func likes(_ data: DiscoveryData, _ store: SQLiteStore) throws -> ReportRow {
        var count = 0
        let results = try Alternation.run(
            runs: runs,
            [
                {
                    var samples = Samples()
                    for _ in 0..<10 {
                        let start = Clock.now()
                        count = try store.likes(viewer: "v-liked").count
                        samples.append(Clock.now() - start)
                    }
                    return samples
                }
            ])
        let p99 = results[0].pooled.quantile(0.99)
        return ReportRow(
            benchmark: "likes (\(data.label)): a viewer liked \(count) times, all listed",
            swipe: "p50 \(duration(results[0].medianOfMedians)), p99 \(duration(p99))", target: "(measured)", met: nil)
    }

    /// A like with the daily quota on (a limit never reached) against the
    /// same like with quotas off; the viewer already liked 100 today.
    func quota(_ data: DiscoveryData, _ store: SQLiteStore) throws -> ReportRow {
        let c = store.connection
        let viewer = "v-quota", key = try store.profileKey(id: viewer)!
        let now = Date()
        let base = try c.scalarInt("SELECT coalesce(max(key), 0) FROM decisions") ?? 0
        for n in 0..<100 {
            _ = try store.record(
                viewer: viewer, profile: "p\(n)", decision: .like, via: .drag, at: now.addingTimeInterval(Double(-n)))
        }
        var next = 100
        func likes(limited: Bool) -> () throws -> Samples {
            {
                try store.setRule("likes-per-day", limited ? "1000" : "off")
                var samples = Samples()
                let first = try c.scalarInt("SELECT coalesce(max(key), 0) FROM decisions") ?? 0
                for _ in 0..<300 {
                    let start = Clock.now()
                    _ = try store.record(viewer: viewer, profile: "p\(next)", decision: .like, via: .drag)
                    samples.append(Clock.now() - start)
                    next += 1
                }
                try c.statement("DELETE FROM decisions WHERE viewer = ?1 AND key > ?2").bind(.int(key), .int(first))
                    .run()
                return samples
            }
        }
        let results = try Alternation.run(runs: runs, [likes(limited: true), likes(limited: false)])
        try store.setRule("likes-per-day", "off")
        try c.statement("DELETE FROM decisions WHERE viewer = ?1 AND key > ?2").bind(.int(key), .int(base)).run()
        let share = results[0].medianOfMedians / results[1].medianOfMedians - 1
        return ReportRow(
            benchmark: "quota check per like (\(data.label)): like with likes-per-day on vs off (100 likes today)",
            swipe: "p50 \(duration(results[0].medianOfMedians))",
            baseline: "p50 \(duration(results[1].medianOfMedians))",
            ratio: share + 1, target: "≤ 1.05× (check ≤ 5%)", met: share <= 0.05)
    }

    /// `swipe import` of the rows with the six discovery columns against the same rows without them.
    func importCost(_ data: DiscoveryData) throws -> ReportRow {
        func importing(_ csv: String) -> () throws -> Samples {
            {
                let path = data.directory + "/discovery-import-\(data.label).sqlite"
                DataSet.remove(database: path)
                defer { DataSet.remove(database: path) }
                let seconds = try Clock.time {
                    _ = try ChildProcess.check([swipe, "import", "--db", path, "--quiet", csv])
                }
                return Samples([seconds])
            }
        }
        let results = try Alternation.run(runs: runs, warmUp: false, [importing(data.csv), importing(data.plainCSV)])
        let ratio = results[0].medianOfMedians / results[1].medianOfMedians
        return ReportRow(
            benchmark:
                "import \(data.label) profiles with lat, lon, seeking, age_min, age_max, max_km (cell index kept) vs without",
            swipe: duration(results[0].medianOfMedians), baseline: duration(results[1].medianOfMedians),
            ratio: ratio, target: "≤ 1.3×", met: ratio <= 1.3)
    }
}

/// A walk's fetches filed by what they did: dealt from the feed's batch (or
/// the likers, who come before any ranking), or read and ranked a window
/// first (a refill, README "Ranking").
final class FetchSplit {
    private(set) var batch = Samples()
    private(set) var refills = Samples()

    func file(_ seconds: Double, refill: Bool) {
        if refill { refills.append(seconds) } else { batch.append(seconds) }
    }

    var description: String {
        func both(_ s: Samples) -> String {
            s.count == 0 ? "none" : "p50 \(duration(s.quantile(0.5))), p99 \(duration(s.quantile(0.99)))"
        }
        return
            "no ranking (\(batch.count): the batch or the likers) \(both(batch)); refills (\(refills.count)) \(both(refills))"
    }
}
