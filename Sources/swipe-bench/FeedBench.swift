import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore

/// The next card as the deck asks for it: one profile, excluding the three
/// already in the deck, after the top card was decided (untimed). Alternates
/// the heavy viewer (20% of all profiles decided, 200k at 1M) with a fresh
/// one, and every size with every other in the same rounds, so the growth
/// from 100k to 1M compares runs made side by side, not minutes apart.
struct FeedBench {
    let sets: [DataSet]
    let runs: Int
    let stepsPerRun: Int

    struct Result {
        var heavy: [Samples]
        var fresh: [Samples]
    }

    func run() throws -> [(DataSet, Result)] {
        var contenders: [() throws -> Samples] = []
        for data in sets {
            let store = try SQLiteStore(path: data.workDB)
            var freshRun = 0
            contenders.append { try Self.walk(store, ProfileCSVWriter.id(data.roles.heavyViewer), steps: stepsPerRun) }
            contenders.append {
                freshRun += 1
                return try Self.walk(store, ProfileCSVWriter.id(data.roles.freshViewer(freshRun)), steps: stepsPerRun)
            }
        }
        log("feed \(sets.map(\.label).joined(separator: ", ")): \(runs) alternated walks of \(stepsPerRun) cards …")
        let results = try Alternation.run(runs: runs, contenders)
        return sets.enumerated().map { index, data in
            (data, Result(heavy: results[2 * index], fresh: results[2 * index + 1]))
        }
    }

    private static func walk(_ store: SQLiteStore, _ viewer: String, steps: Int) throws -> Samples {
        let feed = try SQLiteFeed(store: store, viewer: viewer)
        var deck = try feed.nextProfiles(limit: 3, excluding: [])
        var samples = Samples()
        for _ in 0..<steps {
            guard let top = deck.first else { break }
            _ = try store.record(viewer: viewer, profile: top.id, decision: .hate, via: .drag)
            deck.removeFirst()
            let excluding = Set(deck.map(\.id))
            let start = Clock.now()
            let next = try feed.nextProfiles(limit: 1, excluding: excluding)
            samples.append(Clock.now() - start)
            deck += next
        }
        return samples
    }

    static func rows(_ results: [(DataSet, Result)]) -> [ReportRow] {
        var rows: [ReportRow] = []
        func describe(_ runs: [Samples]) -> String {
            "p50 \(duration(runs.medianOfMedians)), p99 \(duration(runs.pooled.quantile(0.99)))"
        }
        for (data, result) in results {
            let ratio = result.heavy.medianOfMedians / result.fresh.medianOfMedians
            rows.append(
                ReportRow(
                    benchmark:
                        "next card (\(data.label)): heavy viewer (\(data.roles.heavyDecisions) decided) vs fresh",
                    swipe: describe(result.heavy), baseline: describe(result.fresh), ratio: ratio,
                    target: "≤ 1.5×", met: ratio <= 1.5))
        }
        if let small = results.first(where: { $0.0.count == 100_000 }),
            let large = results.first(where: { $0.0.count == 1_000_000 })
        {
            for (who, pick) in [("fresh", \Result.fresh), ("heavy", \Result.heavy)] {
                let ratio = large.1[keyPath: pick].medianOfMedians / small.1[keyPath: pick].medianOfMedians
                rows.append(
                    ReportRow(
                        benchmark: "next card growth 100k → 1M profiles, \(who) viewer",
                        swipe: describe(large.1[keyPath: pick]), baseline: describe(small.1[keyPath: pick]),
                        ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5))
            }
        }
        return rows
    }
}
