import CSQLite
import Foundation
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore

/// Recording one decision with its match check, each in its own transaction,
/// through `SQLiteStore.record` against the same statements through the raw C API,
/// alternated on the same database at WAL + NORMAL. Every tenth decision is
/// the other side liking back, so the match path runs too.
struct LedgerBench {
    let data: DataSet
    let runs: Int
    let decisionsPerRun: Int

    func run() throws -> [ReportRow] {
        let store = try SQLiteStore(path: data.workDB)
        let raw = try RawDatabase(path: data.workDB)
        try raw.configureLikeSwipe()
        let statements = try RawLedger(raw)
        var runIndex = 0
        func plan() -> [(viewer: String, profile: String, decision: Decision)] {
            runIndex += 1
            let viewer = data.roles.ledgerViewer(runIndex)
            let first = data.roles.ordinary.lowerBound + runIndex * decisionsPerRun
            return (0..<decisionsPerRun).map { i in
                let target = first + (i / 10 * 10)
                if i % 10 == 9 { return (ProfileCSVWriter.id(target), ProfileCSVWriter.id(viewer), .like) }
                return (ProfileCSVWriter.id(viewer), ProfileCSVWriter.id(first + i), i % 2 == 0 ? .like : .hate)
            }
        }
        log("ledger \(data.label): \(runs) alternated runs of \(decisionsPerRun) decisions …")
        let results = try Alternation.run(
            runs: runs,
            [
                {
                    var samples = Samples()
                    for step in plan() {
                        let start = Clock.now()
                        _ = try store.record(
                            viewer: step.viewer, profile: step.profile, decision: step.decision, via: .button)
                        samples.append(Clock.now() - start)
                    }
                    return samples
                },
                {
                    var samples = Samples()
                    for step in plan() {
                        let start = Clock.now()
                        try statements.record(viewer: step.viewer, profile: step.profile, decision: step.decision)
                        samples.append(Clock.now() - start)
                    }
                    return samples
                },
            ])
        let throughput = results.map { runs in Samples(runs.map { Double($0.count) / $0.values.reduce(0, +) }).median }
        let ratio = throughput[0] / throughput[1]
        func describe(_ runs: [Samples], _ perSecond: Double) -> String {
            let all = runs.pooled
            return "\(Int(perSecond))/s; p50 \(duration(all.quantile(0.5))), p99 \(duration(all.quantile(0.99))), "
                + "p999 \(duration(all.quantile(0.999)))"
        }
        return [
            ReportRow(
                benchmark: "record one decision + match check, own transaction (\(data.label) db), Store vs raw C API",
                swipe: describe(results[0], throughput[0]), baseline: describe(results[1], throughput[1]),
                ratio: ratio, target: "≥ 0.8× throughput", met: ratio >= 0.8)
        ]
    }
}

/// `SQLiteStore.record`'s statements, issued through the C API.
private struct RawLedger {
    let begin, commit, key, standing, insert, insertMatch, name: RawStatement

    init(_ database: RawDatabase) throws {
        begin = try database.prepare("BEGIN IMMEDIATE")
        commit = try database.prepare("COMMIT")
        key = try database.prepare("SELECT key FROM profiles WHERE id = ?1")
        standing = try database.prepare(
            """
            SELECT key, decision, via, decided_at FROM decisions
            WHERE viewer = ?1 AND profile = ?2 AND undone_at IS NULL
            """)
        insert = try database.prepare(
            "INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        insertMatch = try database.prepare(
            "INSERT INTO matches (low, high, matched_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
        name = try database.prepare("SELECT name FROM profiles WHERE key = ?1")
    }

    func record(viewer: String, profile: String, decision: Decision) throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        gmtime_r(&now.tv_sec, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        _ = withVaList([
            parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
            Int32(now.tv_nsec / 1_000_000),
        ]) { vsnprintf(&stamp, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", $0) }

        try begin.step()
        func lookUp(_ id: String) throws -> Int {
            sqlite3_bind_text(key.handle, 1, id, -1, swipe_sqlite_transient())
            guard try key.step() else { throw BenchError("no profile \(id)") }
            defer { key.reset() }
            return Int(sqlite3_column_int64(key.handle, 0))
        }
        let viewerKey = try lookUp(viewer), profileKey = try lookUp(profile)
        func standingPositive(_ a: Int, _ b: Int) throws -> (Bool, Bool) {
            standing.bind(1, a)
            standing.bind(2, b)
            defer { standing.reset() }
            guard try standing.step() else { return (false, false) }
            return (true, String(cString: sqlite3_column_text(standing.handle, 1)) != "hate")
        }
        guard try !standingPositive(viewerKey, profileKey).0 else { throw BenchError("already decided") }
        insert.bind(1, viewerKey)
        insert.bind(2, profileKey)
        sqlite3_bind_text(insert.handle, 3, decision.rawValue, -1, swipe_sqlite_transient())
        sqlite3_bind_text(insert.handle, 4, "button", -1, swipe_sqlite_transient())
        sqlite3_bind_text(insert.handle, 5, stamp, -1, swipe_sqlite_transient())
        try insert.step()
        let theirs = try standingPositive(profileKey, viewerKey)
        if decision.isPositive, theirs.1 {
            insertMatch.bind(1, min(viewerKey, profileKey))
            insertMatch.bind(2, max(viewerKey, profileKey))
            sqlite3_bind_text(insertMatch.handle, 3, stamp, -1, swipe_sqlite_transient())
            try insertMatch.step()
            name.bind(1, profileKey)
            _ = try name.step()
            _ = String(cString: sqlite3_column_text(name.handle, 0))
            name.reset()
        }
        try commit.step()
    }
}
