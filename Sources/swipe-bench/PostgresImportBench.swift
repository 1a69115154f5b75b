import Foundation
import SwipePostgres
import SwipeStore

/// `swipe import` of one profiles file into PostgreSQL (issue 13: ≤ 1.3× of
/// `psql \copy` of the same CSV into a plain table on the same server),
/// alternated with that reference. The import runs in process
/// (`PostgresImport.profiles`, what `swipe import --db postgres://…` calls)
/// into a fresh swipe schema each run, in a database of its own: reading,
/// checking, COPY into `profiles`, its keys, unique id and place index, and
/// the schema made in the same transaction. A third contender re-imports
/// the same file over the loaded one (every row unchanged: the COPY into a
/// temporary table, the UPDATE's comparison and the INSERT's probe).
struct PostgresImportBench {
    let data: DataSet
    let uri: String
    let psql: String?
    let runs: Int
    let schema: String

    func run() throws -> [ReportRow] {
        let database = "swipe_bench_import"
        let databaseURI = try BenchDatabase.fresh(database, adminURI: uri)
        defer { BenchDatabase.drop(database, adminURI: uri) }
        let target = try PGConnection(uri: databaseURI)
        try target.execute("CREATE TABLE bench_copy_psql (" + PostgresCopyBench.columns + ")")
        let server = try target.scalarText("SELECT current_setting('server_version')") ?? "?"

        func freshSchema() throws {
            try target.execute(
                "DROP SCHEMA IF EXISTS swipe CASCADE; CREATE SCHEMA swipe; SET search_path = swipe, public")
        }
        func importOnce() throws -> ImportSummary {
            try PostgresImport.profiles(
                connection: target, path: data.profilesCSV, options: ImportOptions(), schema: schema)
        }
        var contenders: [() throws -> Samples] = [
            {
                try freshSchema()
                var summary: ImportSummary?
                let seconds = try Clock.time { summary = try importOnce() }
                guard summary?.inserted == data.count else {
                    throw BenchError("import: \(String(describing: summary))")
                }
                return Samples([seconds])
            },
            {
                // Over the previous contender's profiles: every row unchanged.
                var summary: ImportSummary?
                let seconds = try Clock.time { summary = try importOnce() }
                guard summary?.unchanged == data.count else {
                    throw BenchError("re-import: \(String(describing: summary))")
                }
                return Samples([seconds])
            },
        ]
        if let psql {
            contenders.append {
                try target.execute("TRUNCATE bench_copy_psql")
                let command = "\\copy bench_copy_psql FROM '\(data.profilesCSV)' WITH (FORMAT csv, HEADER true)"
                let child = try ChildProcess.check(
                    [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", databaseURI, "-c", command])
                return Samples([child.seconds])
            }
        } else {
            log("psql not found: the \\copy comparison is skipped")
        }
        log("postgres import \(data.label): \(runs) alternated runs of \(contenders.count) contenders …")
        let results = try Alternation.run(runs: runs, contenders)
        for (name, samples) in zip(["swipe import", "swipe re-import", "psql \\copy"], results) {
            log(
                "postgres import \(data.label): \(name) runs: "
                    + samples.map { String(format: "%.2f s", $0.median) }.joined(separator: ", "))
        }
        let importTime = results[0].medianOfMedians, reimportTime = results[1].medianOfMedians
        guard psql != nil else {
            return [
                ReportRow(
                    benchmark: "PostgreSQL \(server) import \(data.label) profiles / re-import (unchanged)",
                    swipe: duration(importTime), baseline: duration(reimportTime))
            ]
        }
        let psqlTime = results[2].medianOfMedians
        return [
            ReportRow(
                benchmark: "PostgreSQL \(server) import \(data.label) profiles: swipe import vs psql \\copy",
                swipe: duration(importTime), baseline: duration(psqlTime), ratio: importTime / psqlTime,
                target: "≤ 1.3×", met: importTime <= 1.3 * psqlTime),
            ReportRow(
                benchmark: "PostgreSQL \(server) re-import \(data.label) profiles (all unchanged) vs psql \\copy",
                swipe: duration(reimportTime), baseline: duration(psqlTime), ratio: reimportTime / psqlTime),
        ]
    }

}
