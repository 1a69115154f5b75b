import Foundation
import SwipePostgres
import SwipeStore

/// `swipe import` of one profiles file into PostgreSQL (issue 40: ≤ 1.3× of
/// `psql \copy` of the same CSV into a plain table of the same columns on
/// the same server; an unchanged re-import ≤ 2×), alternated with that
/// reference, for two files of the same size: the benchmark's profiles (bio,
/// photos, interests) and the discovery rows (place and preferences: lat,
/// lon, seeking, age_min, age_max, max_km; `DiscoveryData`).
///
/// Both sides are whole processes, as a user runs them: `swipe import --db
/// postgres://… --quiet FILE` (the release build given to swipe-bench; its
/// process start, the schema made in the import's transaction, reading,
/// checking, the COPY, the keys, unique id and place indexes, and the
/// ANALYZE after it) into a new empty database each run, against `psql -c
/// '\copy …'`. A third contender re-imports the same file over the loaded
/// one (every row unchanged: the COPY into a temporary table and the merge's
/// one join). Peak RSS is the swipe child's maximum resident set (GNU time).
struct PostgresImportBench {
    let data: DataSet
    let uri: String
    let swipe: String
    let psql: String?
    let runs: Int

    /// One file to import, and the plain table `psql \copy` loads it into.
    struct Input {
        var label: String
        var path: String
        var plainColumns: String
        var count: Int
    }

    func run() throws -> [ReportRow] {
        let discovery = DiscoveryData(label: data.label, count: data.count, directory: data.directory)
        if !FileManager.default.fileExists(atPath: discovery.csv) {
            log("generating discovery \(data.label) profiles …")
            try discovery.writeCSVs()
        }
        let inputs = [
            Input(
                label: "\(data.label) profiles", path: data.profilesCSV, plainColumns: PostgresCopyBench.columns,
                count: data.count),
            Input(
                label: "\(data.label) profiles with place and preferences", path: discovery.csv,
                plainColumns: Self.discoveryColumns,
                count: data.count + DiscoveryData.viewers(smallest: DiscoveryData.cityCount - 1).count),
        ]
        return try inputs.flatMap { try run($0) }
    }

    /// The discovery CSV's columns, typed as `profiles` types them.
    static let discoveryColumns = """
        id text, name text, age integer, gender text, lat double precision, lon double precision, seeking text, \
        age_min integer, age_max integer, max_km double precision
        """

    private func run(_ input: Input) throws -> [ReportRow] {
        let database = "swipe_bench_import"
        let reference = "swipe_bench_import_psql"
        let databaseURI = try BenchDatabase.fresh(database, adminURI: uri)
        let referenceURI = try BenchDatabase.fresh(reference, adminURI: uri)
        defer {
            BenchDatabase.drop(database, adminURI: uri)
            BenchDatabase.drop(reference, adminURI: uri)
        }
        let target = try PGConnection(uri: referenceURI)
        try target.execute("CREATE TABLE bench_copy_psql (" + input.plainColumns + ")")
        let server = try target.scalarText("SELECT current_setting('server_version')") ?? "?"

        // A child's ru_maxrss on Linux starts from the parent's high-water
        // mark (ImportBench): GNU time forks from a small process instead.
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        let rssFile = "\(data.directory)/pgimport-rss.txt"
        defer { unlink(rssFile) }
        var peakRSS = 0, reimportPeakRSS = 0
        func swipeImport() throws -> (seconds: Double, rss: Int) {
            let command = [swipe, "import", "--db", databaseURI, "--quiet", input.path]
            let outcome = try ChildProcess.check(timeTool.map { [$0, "-f", "%M", "-o", rssFile] + command } ?? command)
            return (outcome.seconds, try timeTool.map { _ in try ImportBench.kilobytes(in: rssFile) * 1024 } ?? 0)
        }
        func stored() throws -> Int {
            try PGConnection(uri: databaseURI).scalarInt("SELECT count(*) FROM profiles") ?? 0
        }

        var contenders: [() throws -> Samples] = [
            {
                // A new empty database (untimed): the import makes the schema.
                _ = try BenchDatabase.fresh(database, adminURI: uri)
                let (seconds, rss) = try swipeImport()
                peakRSS = max(peakRSS, rss)
                return Samples([seconds])
            },
            {
                // Over the previous contender's profiles: every row unchanged.
                let (seconds, rss) = try swipeImport()
                reimportPeakRSS = max(reimportPeakRSS, rss)
                return Samples([seconds])
            },
        ]
        if let psql {
            contenders.append {
                try target.execute("TRUNCATE bench_copy_psql")
                let command = "\\copy bench_copy_psql FROM '\(input.path)' WITH (FORMAT csv, HEADER true)"
                let child = try ChildProcess.check(
                    [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", referenceURI, "-c", command])
                return Samples([child.seconds])
            }
        } else {
            log("psql not found: the \\copy comparison is skipped")
        }
        log("postgres import \(input.label): \(runs) alternated runs of \(contenders.count) contenders …")
        let results = try Alternation.run(runs: runs, contenders)
        for (name, samples) in zip(["swipe import", "swipe re-import", "psql \\copy"], results) {
            log(
                "postgres import \(input.label): \(name) runs: "
                    + samples.map { String(format: "%.2f s", $0.median) }.joined(separator: ", "))
        }
        let rows = try stored()
        guard rows == input.count else { throw BenchError("swipe import stored \(rows) profiles of \(input.count)") }

        let importTime = results[0].medianOfMedians, reimportTime = results[1].medianOfMedians
        let name = "PostgreSQL \(server) import \(input.label)"
        var report: [ReportRow] = []
        if psql != nil {
            let psqlTime = results[2].medianOfMedians
            report += [
                ReportRow(
                    benchmark: "\(name): swipe import vs psql \\copy", swipe: duration(importTime),
                    baseline: duration(psqlTime), ratio: importTime / psqlTime, target: "≤ 1.3×",
                    met: importTime <= 1.3 * psqlTime),
                ReportRow(
                    benchmark: "\(name): swipe re-import (all unchanged) vs psql \\copy",
                    swipe: duration(reimportTime), baseline: duration(psqlTime), ratio: reimportTime / psqlTime,
                    target: "≤ 2×", met: reimportTime <= 2 * psqlTime),
            ]
        } else {
            report.append(
                ReportRow(
                    benchmark: "\(name) / re-import (unchanged)", swipe: duration(importTime),
                    baseline: duration(reimportTime)))
        }
        if timeTool != nil {
            report.append(
                ReportRow(
                    benchmark: "\(name): peak RSS of swipe import / re-import", swipe: megabytes(peakRSS),
                    baseline: megabytes(reimportPeakRSS), target: "≤ 128 MB",
                    met: max(peakRSS, reimportPeakRSS) <= 128 << 20))
        }
        return report
    }
}
