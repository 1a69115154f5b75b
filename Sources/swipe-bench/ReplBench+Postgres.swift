import Foundation

/// The REPL's likes on PostgreSQL against SQLite (`--only repl` with
/// `--postgres`): the script a person pipes into `swipe repl` (`deck`, then
/// `likes` likes, then `quit`), run as a whole process, start-up and exit
/// included, on the data set's SQLite work copy and on a PostgreSQL database
/// imported from the same files, alternated. Each run is a viewer of its own
/// (the same one on both backends), so every run likes cards never decided.
struct ReplLikesBench {
    let data: DataSet
    let swipe: String
    let adminURI: String
    let runs: Int
    var likes = 120

    /// The target: PostgreSQL's whole process at most this many times SQLite's.
    static let target = 2.5

    func run() throws -> ReportRow {
        let name = "swipe_bench_repl"
        let database = try ServeBench.postgresDatabase(
            data: data, swipe: swipe, adminURI: adminURI, name: name, section: "repl")
        defer { BenchDatabase.drop(name, adminURI: adminURI) }
        let script = "\(data.directory)/repl-\(likes)-likes.txt"
        try (["deck"] + Array(repeating: "like", count: likes) + ["quit"]).map { $0 + "\n" }.joined()
            .write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }

        var viewers = [0, 0]
        func session(_ side: Int, _ db: String) throws -> Samples {
            // Past the viewers the REPL latency rows take (`replViewer(session)`).
            let viewer = ProfileCSVWriter.id(data.roles.replViewer(100 + viewers[side]))
            viewers[side] += 1
            let outcome = try ChildProcess.check([swipe, "repl", "--db", db, "--as", viewer], input: script)
            return Samples([outcome.seconds])
        }
        let count = max(runs, 9)
        log("repl: \(count) alternated processes of deck and \(likes) likes, on PostgreSQL and on SQLite …")
        let times = try Alternation.run(runs: count, [{ try session(0, database) }, { try session(1, data.workDB) }])
        let postgres = times[0].medianOfMedians, sqlite = times[1].medianOfMedians
        return ReportRow(
            benchmark: "swipe repl (\(data.label)): deck and \(likes) likes, whole process, PostgreSQL vs SQLite",
            swipe: duration(postgres), baseline: duration(sqlite), ratio: postgres / sqlite,
            target: "≤ \(Self.target)×", met: postgres / sqlite <= Self.target)
    }
}
