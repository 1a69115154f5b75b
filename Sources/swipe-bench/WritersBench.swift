import Foundation
import SwipeCore
import SwipePostgres
import SwipeSQLite
import SwipeStore

/// The writers section (`--only writers`, issue 13): the same work on SQLite
/// and on PostgreSQL, side by side.
///
/// 1. Recording one decision with its match check (`record`, one transaction
///    each), in-process, alternated SQLite / PostgreSQL: p50 and p99. Every
///    pair of people like each other in turn, so half the decisions make a
///    match.
/// 2. 1, 4 and 16 `swipe repl --json` processes at once, each liking 300
///    cards as its own viewer: decisions per second over the wall time from
///    the first start to the last exit, alternated per backend. SQLite
///    serialises its writers; PostgreSQL takes them in parallel, as far as the
///    machine's cores let it.
///
/// Both databases hold the same 10,000 profiles (no preferences: everyone
/// sees everyone), written by the store's upsert. Every run checks that the
/// database gained exactly the decisions the processes were asked for, so
/// an error cannot pass for speed.
struct WritersBench {
    let swipe: String
    let postgres: String
    let directory: String
    let runs: Int
    var profiles = 10_000
    var pairsPerRun = 500
    var likesPerProcess = 300
    var processCounts = [1, 4, 16]

    static func id(_ number: Int) -> String { String(format: "w%05d", number) }

    func run() throws -> [ReportRow] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let sqlite = directory + "/writers-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sqlite + suffix) } }
        let database = "swipe_bench_writers_\(getpid())"
        let pg = try BenchDatabase.fresh(database, adminURI: postgres)
        defer { BenchDatabase.drop(database, adminURI: postgres) }
        let stores: [(name: String, location: String, store: any SwipeDatabase)] = [
            ("SQLite", sqlite, try SQLiteStore(path: sqlite)),
            ("PostgreSQL", pg, try openPostgresStore(uri: pg)),
        ]
        // Through the store's own upsert, the same on both (the imports are
        // measured in their own sections).
        log("writers: \(profiles) profiles into SQLite and PostgreSQL …")
        for backend in stores {
            for number in 0..<profiles {
                try backend.store.upsert(Profile(id: Self.id(number), name: "Writer \(number)", age: 18 + number % 60))
            }
        }
        var rows = try recordLatency(stores.map(\.store))
        rows += try concurrentWriters(stores)
        return rows
    }

    // MARK: - One decision

    /// Viewers w00000…w00049 and targets from w01000 on: pair k is viewer
    /// k % 50 and target 1000 + k / 50, each liking the other (the second
    /// like makes the match). Runs and backends never reuse a pair.
    func recordLatency(_ stores: [any SwipeDatabase]) throws -> [ReportRow] {
        var next = 0
        func plan() -> [(String, String)] {
            defer { next += pairsPerRun }
            return (next..<(next + pairsPerRun)).map { k in (Self.id(k % 50), Self.id(1_000 + k / 50)) }
        }
        let contenders: [() throws -> Samples] = stores.map { store in
            {
                var samples = Samples()
                for (viewer, target) in plan() {
                    for (who, whom) in [(viewer, target), (target, viewer)] {
                        let start = Clock.now()
                        _ = try store.record(viewer: who, profile: whom, decision: .like, via: .button)
                        samples.append(Clock.now() - start)
                    }
                }
                return samples
            }
        }
        log("writers: \(runs) alternated runs of \(pairsPerRun * 2) decisions per backend …")
        let results = try Alternation.run(runs: runs, contenders)
        let sqlite = results[0].pooled, pg = results[1].pooled
        func describe(_ all: Samples) -> String {
            "p50 \(duration(all.quantile(0.5))), p99 \(duration(all.quantile(0.99)))"
        }
        return [
            ReportRow(
                benchmark:
                    "record one decision + match check, \(profiles / 1000)k profiles: PostgreSQL vs SQLite (p50)",
                swipe: "PostgreSQL " + describe(pg), baseline: "SQLite " + describe(sqlite),
                ratio: pg.quantile(0.5) / sqlite.quantile(0.5)),
            ReportRow(
                benchmark: "record one decision + match check: PostgreSQL vs SQLite (p99)",
                swipe: "PostgreSQL p99 \(duration(pg.quantile(0.99)))",
                baseline: "SQLite p99 \(duration(sqlite.quantile(0.99)))",
                ratio: pg.quantile(0.99) / sqlite.quantile(0.99)),
        ]
    }

    // MARK: - Concurrent writing processes

    func concurrentWriters(_ stores: [(name: String, location: String, store: any SwipeDatabase)]) throws -> [ReportRow]
    {
        let script = directory + "/writers-likes.txt"
        try String(repeating: "like\n", count: likesPerProcess).write(toFile: script, atomically: true, encoding: .utf8)
        // Viewers from w02000 on, a fresh one for every process of every run.
        var nextViewer = 2_000
        var rows: [ReportRow] = []
        for count in processCounts {
            let contenders: [() throws -> Samples] = stores.map { backend in
                {
                    let viewers = (0..<count).map { Self.id(nextViewer + $0) }
                    nextViewer += count
                    let before = try backend.store.stats().decisions
                    let seconds = try Self.runAtOnce(swipe, db: backend.location, viewers: viewers, script: script)
                    let made = try backend.store.stats().decisions - before
                    guard made == count * likesPerProcess else {
                        throw BenchError(
                            "\(backend.name), \(count) processes: \(made) decisions stored, \(count * likesPerProcess) asked for"
                        )
                    }
                    // One sample: decisions per second of this run.
                    return Samples([Double(made) / seconds])
                }
            }
            log("writers: \(runs) alternated runs of \(count) process(es) × \(likesPerProcess) likes per backend …")
            let results = try Alternation.run(runs: runs, contenders)
            let sqlite = results[0].medianOfMedians, pg = results[1].medianOfMedians
            rows.append(
                ReportRow(
                    benchmark:
                        "\(count) writing process\(count == 1 ? "" : "es") × \(likesPerProcess) likes (`swipe repl --json`): PostgreSQL vs SQLite throughput",
                    swipe: "PostgreSQL \(Int(pg.rounded())) decisions/s",
                    baseline: "SQLite \(Int(sqlite.rounded())) decisions/s",
                    ratio: pg / sqlite, target: "> 1× where PostgreSQL overtakes", met: pg > sqlite))
        }
        return rows
    }

    /// Starts one `swipe repl --json` per viewer at once, standard input from
    /// `script`, output discarded; the wall time until the last one exits.
    static func runAtOnce(_ swipe: String, db: String, viewers: [String], script: String) throws -> Double {
        let start = Clock.now()
        let children = try viewers.map { viewer in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swipe)
            process.arguments = ["repl", "--json", "--db", db, "--as", viewer]
            process.standardInput = FileHandle(forReadingAtPath: script)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        var failed: [Int32] = []
        for child in children {
            child.waitUntilExit()
            if child.terminationStatus != 0 { failed.append(child.terminationStatus) }
        }
        let seconds = Clock.now() - start
        guard failed.isEmpty else { throw BenchError("swipe repl exited with \(failed) on \(db)") }
        return seconds
    }
}
