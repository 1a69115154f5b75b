import SwipeCSV
import SwipeSQLite
import SwipeStore

/// Read queries a person waits for: matches for a viewer with few and with
/// about a thousand, and one page (20) of the heavy viewer's history next to
/// a light viewer's. Ratios are for the record; the issue sets no target.
struct QueryBench {
    let data: DataSet
    let runs: Int
    let callsPerRun: Int

    func run() throws -> [ReportRow] {
        let store = try SQLiteStore(path: data.workDB)
        let roles = data.roles
        func timed(_ body: () throws -> Void) throws -> Samples {
            var samples = Samples()
            for _ in 0..<callsPerRun { samples.append(try Clock.time(body)) }
            return samples
        }
        let many = ProfileCSVWriter.id(roles.manyMatchesViewer), few = ProfileCSVWriter.id(roles.fewMatchesViewer)
        let heavy = ProfileCSVWriter.id(roles.heavyViewer)
        let manyCount = try store.matches(viewer: many).count, fewCount = try store.matches(viewer: few).count
        log("queries \(data.label): \(runs) alternated runs …")
        let matches = try Alternation.run(
            runs: runs,
            [
                { try timed { _ = try store.matches(viewer: many) } },
                { try timed { _ = try store.matches(viewer: few) } },
            ])
        let history = try Alternation.run(
            runs: runs,
            [
                { try timed { _ = try store.history(HistoryQuery(viewer: heavy, limit: 20)) } },
                { try timed { _ = try store.history(HistoryQuery(viewer: few, limit: 20)) } },
            ])
        func describe(_ runs: [Samples]) -> String {
            "p50 \(duration(runs.medianOfMedians)), p99 \(duration(runs.pooled.quantile(0.99)))"
        }
        return [
            ReportRow(
                benchmark: "matches (\(data.label)): \(manyCount) matches vs \(fewCount)",
                swipe: describe(matches[0]), baseline: describe(matches[1]),
                ratio: matches[0].medianOfMedians / matches[1].medianOfMedians),
            ReportRow(
                benchmark: "history page of 20 (\(data.label)): heavy viewer vs light viewer",
                swipe: describe(history[0]), baseline: describe(history[1]),
                ratio: history[0].medianOfMedians / history[1].medianOfMedians),
        ]
    }
}
