import Foundation
import SwipePostgres

/// Bulk load of one profiles file into PostgreSQL, alternated: `psql \copy`
/// of the CSV (the reference: libpq's COPY driven by PostgreSQL's own
/// client), SwipePostgres streaming the same CSV bytes through `copy`, and
/// SwipePostgres writing the rows `swipe import` would bind (parsed once,
/// untimed, as for the SQLite floor) in COPY's text format. All three load
/// the same plain table (text columns, age an integer) on the same server;
/// each run starts from an empty table.
struct PostgresCopyBench {
    let data: DataSet
    let uri: String
    let psql: String?
    let runs: Int

    static let columns =
        "id text, name text, age integer, gender text, city text, bio text, photos text, interests text"

    func run() throws -> [ReportRow] {
        let connection = try PGConnection(uri: uri)
        let server = try connection.scalarText("SELECT current_setting('server_version')") ?? "?"
        let tables = ["bench_copy_psql", "bench_copy_csv", "bench_copy_rows"]
        for table in tables {
            let name = try connection.quotedIdentifier(table)
            try connection.execute(
                "DROP TABLE IF EXISTS " + name + "; CREATE TABLE " + name + " (" + Self.columns + ")")
        }
        defer {
            for table in tables {
                if let name = try? connection.quotedIdentifier(table) {
                    try? connection.execute("DROP TABLE IF EXISTS " + name)
                }
            }
        }
        log("postgres copy \(data.label): parsing the file once for the row writer …")
        let parsed = try ParsedProfiles(path: data.profilesCSV)

        func emptied(_ table: String) throws {
            try connection.execute("TRUNCATE " + connection.quotedIdentifier(table))
        }
        var contenders: [() throws -> Samples] = [
            {
                try emptied("bench_copy_csv")
                return Samples([try Clock.time { try copyCSV(connection, into: "bench_copy_csv") }])
            },
            {
                try emptied("bench_copy_rows")
                return Samples([try Clock.time { try copyRows(parsed, connection, into: "bench_copy_rows") }])
            },
        ]
        if let psql {
            contenders.append {
                try emptied("bench_copy_psql")
                let command = "\\copy bench_copy_psql FROM '\(data.profilesCSV)' WITH (FORMAT csv, HEADER true)"
                return Samples([
                    try ChildProcess.check([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", command])
                        .seconds
                ])
            }
        } else {
            log("psql not found: the \\copy comparison is skipped")
        }
        log("postgres copy \(data.label): \(runs) alternated runs of \(contenders.count) contenders …")
        let results = try Alternation.run(runs: runs, contenders)
        for (name, samples) in zip(["SwipePostgres CSV bytes", "SwipePostgres encoded rows", "psql \\copy"], results) {
            log(
                "postgres copy \(data.label): \(name) runs: "
                    + samples.map { String(format: "%.2f s", $0.median) }.joined(separator: ", "))
        }
        for table in psql == nil ? Array(tables.dropFirst()) : tables {
            let rows = try connection.scalarInt("SELECT count(*) FROM " + connection.quotedIdentifier(table)) ?? 0
            guard rows == data.count else { throw BenchError("\(table) holds \(rows) rows, expected \(data.count)") }
        }

        let csvTime = results[0].medianOfMedians, rowsTime = results[1].medianOfMedians
        guard psql != nil else {
            return [
                ReportRow(
                    benchmark:
                        "PostgreSQL \(server) COPY \(data.label) profiles: SwipePostgres CSV bytes / encoded rows",
                    swipe: duration(csvTime), baseline: duration(rowsTime))
            ]
        }
        let psqlTime = results[2].medianOfMedians
        return [
            ReportRow(
                benchmark: "PostgreSQL \(server) COPY \(data.label) profiles: SwipePostgres CSV bytes vs psql \\copy",
                swipe: duration(csvTime), baseline: duration(psqlTime), ratio: csvTime / psqlTime,
                target: "≤ 1.1×", met: csvTime <= 1.1 * psqlTime),
            ReportRow(
                benchmark:
                    "PostgreSQL \(server) COPY \(data.label) profiles: SwipePostgres encoded rows vs psql \\copy",
                swipe: duration(rowsTime), baseline: duration(psqlTime), ratio: rowsTime / psqlTime,
                target: "≤ 1.3×", met: rowsTime <= 1.3 * psqlTime),
        ]
    }

    /// The file's bytes as they are, 256 KiB at a time.
    private func copyCSV(_ connection: PGConnection, into table: String) throws {
        guard let file = FileHandle(forReadingAtPath: data.profilesCSV) else {
            throw BenchError("cannot read \(data.profilesCSV)")
        }
        defer { try? file.close() }
        _ = try connection.copy("COPY " + connection.quotedIdentifier(table) + " FROM STDIN (FORMAT csv, HEADER true)")
        { writer in
            while let chunk = try file.read(upToCount: 256 * 1024), !chunk.isEmpty {
                try chunk.withUnsafeBytes { try writer.write(raw: $0) }
            }
        }
    }

    /// The parsed rows, escaped into COPY's text format.
    private func copyRows(_ parsed: ParsedProfiles, _ connection: PGConnection, into table: String) throws {
        try parsed.bytes.withUnsafeBufferPointer { bytes in
            _ = try connection.copy("COPY " + connection.quotedIdentifier(table) + " FROM STDIN") { writer in
                for row in 0..<parsed.count {
                    for column in 0..<7 {
                        if column == 2 { writer.field(.integer(Int64(parsed.ages[row]))) }
                        let span = parsed.spans[row * 7 + column]
                        if span.count < 0 {
                            writer.field(.null)
                        } else {
                            writer.field(
                                utf8: UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)]))
                        }
                    }
                    try writer.endRow()
                }
            }
        }
    }
}
