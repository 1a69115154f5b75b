import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore

/// Import of one profiles file three ways, alternated: `swipe import` (a
/// release-built process), the sqlite3 shell's `.import` into a plain table,
/// and a raw C-API prepared-insert loop over the already parsed rows into the
/// swipe schema. Also the peak RSS of `swipe import`.
struct ImportBench {
    let data: DataSet
    let swipe: String
    let sqlite3: String?
    let runs: Int

    func run() throws -> [ReportRow] {
        let swipeDB = "\(data.directory)/import-swipe.sqlite"
        let plainDB = "\(data.directory)/import-plain.sqlite"
        let floorDB = "\(data.directory)/import-floor.sqlite"
        log("import \(data.label): parsing the file once for the raw loop …")
        let parsed = try ParsedProfiles(path: data.profilesCSV)
        var peakRSS = 0
        // A child's ru_maxrss on Linux starts from the parent's high-water mark
        // (posix_spawn shares the parent's memory until exec), and this process
        // holds every parsed row: GNU time forks from a small process instead.
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        let rssFile = "\(data.directory)/import-rss.txt"

        var contenders: [() throws -> Samples] = [
            {
                DataSet.remove(database: swipeDB)
                let command = [swipe, "import", "--db", swipeDB, "--quiet", data.profilesCSV]
                let outcome = try ChildProcess.check(
                    timeTool.map { [$0, "-f", "%M", "-o", rssFile] + command } ?? command)
                peakRSS = max(
                    peakRSS, try timeTool.map { _ in try Self.kilobytes(in: rssFile) * 1024 } ?? outcome.maxRSS)
                return Samples([outcome.seconds])
            },
            {
                DataSet.remove(database: floorDB)
                _ = try SQLiteStore(path: floorDB)
                return Samples([try Clock.time { try insertLoop(parsed, into: floorDB) }])
            },
        ]
        if let sqlite3 {
            contenders.append {
                DataSet.remove(database: plainDB)
                try RawDatabase(path: plainDB).execute(
                    "CREATE TABLE profiles (id, name, age, gender, city, bio, photos, interests)")
                let command = ".import --csv --skip 1 \(data.profilesCSV) profiles"
                return Samples([try ChildProcess.check([sqlite3, plainDB, command]).seconds])
            }
        }
        log("import \(data.label): \(runs) alternated runs of \(contenders.count) contenders …")
        let results = try Alternation.run(runs: runs, contenders)
        // Every run, in order: the spread says how far one median can be trusted.
        for (name, samples) in zip(["swipe import", "raw C-API floor", "sqlite3 .import"], results) {
            log(
                "import \(data.label): \(name) runs: "
                    + samples.map { String(format: "%.2f s", $0.median) }.joined(separator: ", "))
        }
        try verify(swipeDB, floorDB, sqlite3 == nil ? nil : plainDB)
        for database in [swipeDB, floorDB, plainDB, rssFile] { DataSet.remove(database: database) }

        let swipeTime = results[0].medianOfMedians, floorTime = results[1].medianOfMedians
        var rows: [ReportRow] = []
        if sqlite3 != nil {
            let shellTime = results[2].medianOfMedians
            rows.append(
                ReportRow(
                    benchmark: "import \(data.label) profiles vs sqlite3 .import (plain table)",
                    swipe: duration(swipeTime), baseline: duration(shellTime), ratio: swipeTime / shellTime,
                    target: "≤ 1.0×", met: swipeTime <= shellTime))
        }
        rows.append(
            ReportRow(
                benchmark: "import \(data.label) profiles vs raw C-API insert loop (parsed rows)",
                swipe: duration(swipeTime), baseline: duration(floorTime), ratio: swipeTime / floorTime,
                target: "≤ 1.3×", met: swipeTime <= 1.3 * floorTime))
        rows.append(
            ReportRow(
                benchmark: "import \(data.label) profiles: peak RSS of swipe import", swipe: megabytes(peakRSS),
                target: "≤ 128 MB", met: peakRSS <= 128 << 20))
        return rows
    }

    /// The swipe schema, the statements, settings and binds of `swipe import`
    /// (64 rows to an INSERT, as `ProfileChunkWriter`; rollback journal,
    /// FULL sync and CHECKs off, as `SQLiteConnection.bulkWrite`; the kernel
    /// asked to start writing every 16,384 rows, as `EarlyWriteback`), one transaction.
    private func insertLoop(_ parsed: ParsedProfiles, into path: String) throws {
        let database = try RawDatabase(path: path)
        let writeback = EarlyWriteback(databasePath: path)
        try database.configureLikeSwipeImport()
        try database.execute("BEGIN IMMEDIATE")
        let chunk = 64
        let values = (0..<chunk).map { row in "(" + (1...8).map { "?\(row * 8 + $0)" }.joined(separator: ", ") + ")" }
        let chunkInsert = try database.prepare(
            """
            INSERT INTO profiles (id, name, age, gender, city, bio, photos, interests)
            VALUES \(values.joined(separator: ", "))
            """)
        let insert = try database.prepare(
            """
            INSERT INTO profiles (id, name, age, gender, city, bio, photos, interests)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        let parameters: [Int32] = [1, 2, 4, 5, 6, 7, 8]
        try parsed.bytes.withUnsafeBufferPointer { bytes in
            func bind(_ row: Int, to statement: RawStatement, offset: Int32) {
                statement.bind(offset + 3, parsed.ages[row])
                for (column, parameter) in parameters.enumerated() {
                    let span = parsed.spans[row * 7 + column]
                    if span.count < 0 {
                        statement.bindNull(offset + parameter)
                    } else {
                        statement.bind(offset + parameter, bytes.baseAddress! + span.start, count: span.count)
                    }
                }
            }
            var row = 0
            while row + chunk <= parsed.count {
                for index in 0..<chunk { bind(row + index, to: chunkInsert, offset: Int32(index * 8)) }
                try chunkInsert.step()
                writeback.wrote(rows: chunk)
                row += chunk
            }
            while row < parsed.count {
                bind(row, to: insert, offset: 0)
                try insert.step()
                row += 1
            }
        }
        try database.execute("COMMIT")
    }

    static func kilobytes(in file: String) throws -> Int {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("\(file): expected a number of kilobytes, found \(text.debugDescription)")
        }
        return value
    }

    private func verify(_ databases: String?...) throws {
        for case let path? in databases {
            let rows = try RawDatabase(path: path).count("profiles")
            guard rows == data.count else { throw BenchError("\(path) holds \(rows) profiles, expected \(data.count)") }
        }
    }
}
