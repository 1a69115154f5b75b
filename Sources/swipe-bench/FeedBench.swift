import SwipeCore
import SwipeStore

/// The next card as the deck asks for it: one profile, excluding the three
/// already in the deck, after the top card was decided (untimed). Alternates
/// the heavy viewer (20% of all profiles decided, 200k at 1M) with a fresh one.
struct FeedBench {
    let data: DataSet
    let runs: Int
    let stepsPerRun: Int

    struct Result {
        var heavy: [Samples]
        var fresh: [Samples]
    }

    func run() throws -> Result {
        let store = try Store(path: data.workDB)
        var freshRun = 0
        func walk(_ viewer: String) throws -> Samples {
            let feed = try SQLiteFeed(store: store, viewer: viewer)
            var deck = try feed.nextProfiles(limit: 3, excluding: [])
            var samples = Samples()
            for _ in 0..<stepsPerRun {
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
        log("feed \(data.label): \(runs) alternated walks of \(stepsPerRun) cards …")
        let results = try Alternation.run(runs: runs, [
            { try walk(ProfileCSVWriter.id(data.roles.heavyViewer)) },
            {
                freshRun += 1
                return try walk(ProfileCSVWriter.id(data.roles.freshViewer(freshRun)))
            },
        ])
        return Result(heavy: results[0], fresh: results[1])
    }

    static func rows(_ results: [(DataSet, Result)]) -> [ReportRow] {
        var rows: [ReportRow] = []
        func describe(_ runs: [Samples]) -> String {
            "p50 \(duration(runs.medianOfMedians)), p99 \(duration(runs.pooled.quantile(0.99)))"
        }
        for (data, result) in results {
            let ratio = result.heavy.medianOfMedians / result.fresh.medianOfMedians
            rows.append(ReportRow(
                benchmark: "next card (\(data.label)): heavy viewer (\(data.roles.heavyDecisions) decided) vs fresh",
                swipe: describe(result.heavy), baseline: describe(result.fresh), ratio: ratio,
                target: "≤ 1.5×", met: ratio <= 1.5))
        }
        if let small = results.first(where: { $0.0.count == 100_000 }),
           let large = results.first(where: { $0.0.count == 1_000_000 }) {
            for (who, pick) in [("fresh", \Result.fresh), ("heavy", \Result.heavy)] {
                let ratio = large.1[keyPath: pick].medianOfMedians / small.1[keyPath: pick].medianOfMedians
                rows.append(ReportRow(
                    benchmark: "next card growth 100k → 1M profiles, \(who) viewer",
                    swipe: describe(large.1[keyPath: pick]), baseline: describe(small.1[keyPath: pick]),
                    ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5))
            }
        }
        return rows
    }
}
