import Foundation

// swipe-bench: the benchmark suite behind `make bench` and BENCHMARKS.md.
// Generates deterministic data under bench-data/ when missing, runs each
// comparison alternated (A B A B …) over at least five runs and prints a
// Markdown table of medians and ratios against the targets.

do {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let machine = Machine.describe()
    let rankingParts = options.only.intersection(["ranking", "ranking-replay", "ranking-town"])
    if !rankingParts.isEmpty {
        // Makes its own data; needs no data set and no swipe child process.
        let started = Date()
        var bench = RankingBench(speedDating: options.speedDating, directory: options.dataDirectory)
        if !rankingParts.contains("ranking") {
            bench.parts = Set(rankingParts.map { String($0.dropFirst("ranking-".count)) })
        }
        let table = try bench.run()
        print(machine + "\n\n## Ranking (make bench-ranking)\n\n" + table)
        log(String(format: "ranking: %.1f s", Date().timeIntervalSince(started)))
        if let output = options.output, options.only == rankingParts {
            try (machine + "\n\n" + table).write(toFile: output, atomically: true, encoding: .utf8)
        }
        if options.only == rankingParts { exit(0) }
    }
    let sqlite3 = ChildProcess.which("sqlite3")
    if sqlite3 == nil { log("sqlite3 not found: the .import comparison is skipped") }
    let sets = try options.sizes.map { try DataSet(label: $0, directory: options.dataDirectory) }
    // The discovery and writers sections make their own data; the others share these sets.
    if !options.only.subtracting(DiscoveryBench.sections).subtracting(["writers", "discovery-postgres", "photos"])
        .isEmpty
    {
        for data in sets { try data.prepare(swipe: options.swipe) }
    }
    guard let largest = sets.max(by: { $0.count < $1.count }) else { throw BenchError("no sizes given") }

    print(machine + "\n")
    print(Report.header)
    var report = Report()
    let runs = options.runs
    if options.only.contains("import") {
        for data in sets {
            report.add(try ImportBench(data: data, swipe: options.swipe, sqlite3: sqlite3, runs: runs).run())
        }
    }
    if options.only.contains("ledger") {
        report.add(try LedgerBench(data: largest, runs: runs, decisionsPerRun: 2_000).run())
    }
    if options.only.contains("feed") {
        let feedSets = sets.filter { $0.count >= 100_000 }.isEmpty ? [largest] : sets.filter { $0.count >= 100_000 }
        report.add(FeedBench.rows(try FeedBench(sets: feedSets, runs: runs, stepsPerRun: 2_000).run()))
    }
    if options.only.contains("queries") {
        report.add(try QueryBench(data: largest, runs: runs, callsPerRun: 200).run())
    }
    if options.only.contains("repl") {
        report.add(
            try ReplBench(
                data: largest, swipe: options.swipe, sqlite3: sqlite3, runs: runs, commandsPerRun: 2_000
            ).run())
        if let uri = options.postgres {
            report.add(try ReplLikesBench(data: largest, swipe: options.swipe, adminURI: uri, runs: runs).run())
        } else {
            log("no --postgres URI: the REPL's likes on PostgreSQL are skipped")
        }
    }
    if options.only.contains("output") {
        if let sqlite3 {
            report.add(try OutputBench(data: largest, swipe: options.swipe, sqlite3: sqlite3, runs: runs).run())
        } else {
            log("sqlite3 not found: the output comparison is skipped")
        }
    }
    if options.only.contains("insights") {
        if let sqlite3 {
            report.add(try InsightsBench(data: largest, swipe: options.swipe, sqlite3: sqlite3, runs: runs).run())
        } else {
            log("sqlite3 not found: the insights comparison is skipped")
        }
        if let uri = options.postgres, let psql = ChildProcess.which("psql") {
            report.add(
                try InsightsBench.postgres(data: largest, swipe: options.swipe, psql: psql, adminURI: uri, runs: runs))
        } else {
            log("no --postgres URI or no psql: insights on PostgreSQL is skipped")
        }
    }
    let discoverySections = options.only.intersection(DiscoveryBench.sections)
    if !discoverySections.isEmpty {
        let discoverySets = options.sizes.map { label in
            DiscoveryData(
                label: label, count: (try? DataSet(label: label, directory: "").count) ?? 0,
                directory: options.dataDirectory)
        }
        report.add(
            try DiscoveryBench(
                sets: discoverySets, swipe: options.swipe, runs: runs, cardsPerRun: 200,
                sections: discoverySections
            ).run())
    }
    // `serve` and `serve-postgres` run the load rows and the chat rows;
    // `serve-chat` and `serve-postgres-chat` the chat rows alone;
    // `serve-staggered` and `serve-postgres-staggered` the staggered load row
    // alone (issue 23's like target); `serve-closed` and
    // `serve-postgres-closed` the closed-loop row alone: quick side-by-side runs.
    for section in ["serve", "serve-postgres"]
    where options.only.contains(section) || options.only.contains(section + "-chat")
        || options.only.contains(section + "-staggered") || options.only.contains(section + "-closed")
    {
        let load = options.only.contains(section)
        let staggeredOnly = !load && options.only.contains(section + "-staggered")
        let closedOnly = !load && !staggeredOnly && options.only.contains(section + "-closed")
        // Sockets, not data size, are what this measures: the smallest set.
        let data = sets.min(by: { $0.count < $1.count }) ?? largest
        var database: String?
        if section == "serve-postgres" {
            guard let uri = options.postgres else {
                log("no --postgres URI: swipe serve on PostgreSQL is skipped")
                continue
            }
            database = try ServeBench.postgresDatabase(data: data, swipe: options.swipe, adminURI: uri)
        }
        // Each run's viewers are new people (the runs share the database):
        // the staggered load, issue 23's like target, runs three times and
        // takes three blocks of viewers; the other rows one block each after them.
        let block = ServeBench.viewersPerRun(sessions: options.sessions)
        var staggeredLoad = ServeBench(
            data: data, database: database, swipe: options.swipe, sessions: options.sessions,
            pacing: .milliseconds(100), staggered: true)
        staggeredLoad.repeats = 3
        if staggeredOnly {
            report.add(try await staggeredLoad.run())
            continue
        }
        let closedLoop = ServeBench(
            data: data, database: database, swipe: options.swipe, sessions: options.sessions, pacing: .zero,
            viewerOffset: (staggeredLoad.repeats + 1) * block)
        if closedOnly {
            report.add(try await closedLoop.run())
            continue
        }
        if load {
            report.add(try await staggeredLoad.run())
            report.add(
                try await ServeBench(
                    data: data, database: database, swipe: options.swipe, sessions: options.sessions,
                    pacing: .milliseconds(100), viewerOffset: staggeredLoad.repeats * block
                ).run())
            report.add(try await closedLoop.run())
        }
        report.add(
            try await ChatServeBench(
                data: data, database: database ?? data.workDB, swipe: options.swipe, sessions: options.sessions,
                viewerOffset: (staggeredLoad.repeats + 2) * block
            ).run())
    }
    if options.only.contains("discovery-postgres") {
        // The largest discovery set (1M in a full run): the target is at 1M.
        if let uri = options.postgres,
            let label = options.sizes.max(by: {
                ((try? DataSet(label: $0, directory: "").count) ?? 0)
                    < ((try? DataSet(label: $1, directory: "").count) ?? 0)
            })
        {
            let data = DiscoveryData(
                label: label, count: (try? DataSet(label: label, directory: "").count) ?? 0,
                directory: options.dataDirectory)
            report.add(
                try PostgresDiscoveryBench(data: data, swipe: options.swipe, uri: uri, runs: runs, cardsPerRun: 200)
                    .run())
        } else {
            log("no --postgres URI: discovery on PostgreSQL is skipped")
        }
    }
    if options.only.contains("postgres") {
        if let uri = options.postgres {
            report.add(
                try PostgresCopyBench(data: largest, uri: uri, psql: ChildProcess.which("psql"), runs: runs).run())
        } else {
            log("no --postgres URI: the PostgreSQL COPY comparison is skipped")
        }
    }
    if options.only.contains("pgimport") {
        if let uri = options.postgres {
            report.add(
                try PostgresImportBench(
                    data: largest, uri: uri, swipe: options.swipe, psql: ChildProcess.which("psql"), runs: runs
                ).run())
        } else {
            log("no --postgres URI: the PostgreSQL import comparison is skipped")
        }
    }
    if options.only.contains("writers") {
        if let uri = options.postgres {
            report.add(
                try WritersBench(swipe: options.swipe, postgres: uri, directory: options.dataDirectory, runs: runs)
                    .run())
        } else {
            log("no --postgres URI: the writers comparison (SQLite vs PostgreSQL) is skipped")
        }
    }
    if options.only.contains("photos") {
        report.add(try PhotoBench(swipe: options.swipe, directory: options.dataDirectory, runs: runs).run())
    }
    if let output = options.output {
        try (machine + "\n\n" + report.markdown + "\n").write(toFile: output, atomically: true, encoding: .utf8)
        log("wrote \(output)")
    }
} catch {
    log("swipe-bench: \(error)")
    exit(1)
}
