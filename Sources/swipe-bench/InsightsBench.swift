import Foundation
import SwipeSQLite
import SwipeStore

/// Issue 39's speed targets (Documentation/Insights.md):
///
/// - `swipe insights --by day --format csv` over the data set, as a child
///   process, next to the sqlite3 shell running one hand-written query that
///   gives the same numbers for every key (`InsightsBench.sql`), alternated;
///   both outputs are compared number by number before anything is timed.
///   Peak RSS of both through GNU time (as ImportBench: a posix_spawn child's
///   ru_maxrss starts from the parent's).
/// - a `history --since` page (20) for the heavy viewer (200k decisions at
///   1M), in the store, next to a light viewer's: p50 and p99.
struct InsightsBench {
    let data: DataSet
    let swipe: String
    let sqlite3: String
    let runs: Int

    /// The generated decisions start at 2026-01-01T00:00:00Z, one a second
    /// (about 3.5 days at 1M): a week holds them all, with empty days after.
    static let since = "2026-01-01", until = "2026-01-07"

    /// Every key of `swipe insights --by day`, one row per day of the range,
    /// as Documentation/Insights.md defines them, in plain SQL over the
    /// tables. The range is bound (`.parameter set`), never written into it.
    static let sql = """
        WITH RECURSIVE
        days(day) AS (SELECT @since_day UNION ALL SELECT date(day, '+1 day') FROM days WHERE day < @until_day),
        decided AS (
          SELECT substr(decided_at, 1, 10) AS day,
                 sum(decision = 'like' AND undone_at IS NULL) AS likes,
                 sum(decision = 'superlike' AND undone_at IS NULL) AS superlikes,
                 sum(decision = 'hate' AND undone_at IS NULL) AS hates
          FROM decisions WHERE decided_at >= @since AND decided_at < @end GROUP BY 1),
        acting AS (
          SELECT day, count(*) AS active FROM (
            SELECT substr(decided_at, 1, 10) AS day, viewer AS person FROM decisions
            WHERE decided_at >= @since AND decided_at < @end
            UNION
            SELECT substr(sent_at, 1, 10), sender FROM messages WHERE sent_at >= @since AND sent_at < @end)
          GROUP BY day),
        matched AS (
          SELECT substr(matched_at, 1, 10) AS day, count(*) AS matches FROM matches
          WHERE matched_at >= @since AND matched_at < @end GROUP BY 1),
        talks AS (
          SELECT substr(f.sent_at, 1, 10) AS day,
                 (julianday(f.sent_at) - julianday(m.matched_at)) * 24 AS hours,
                 EXISTS (SELECT 1 FROM messages AS r
                         WHERE r.low = f.low AND r.high = f.high AND r.sender = f.recipient) AS replied
          FROM messages AS f JOIN matches AS m ON m.low = f.low AND m.high = f.high
          WHERE f.seq = 1 AND f.sent_at >= @since AND f.sent_at < @end),
        talked AS (SELECT day, count(*) AS conversations, sum(replied) AS replied FROM talks GROUP BY day),
        middle AS (
          SELECT day, avg(hours) AS median FROM (
            SELECT day, hours, row_number() OVER (PARTITION BY day ORDER BY hours) AS n,
                   count(*) OVER (PARTITION BY day) AS total FROM talks)
          WHERE n IN ((total + 1) / 2, (total + 2) / 2) GROUP BY day),
        shown AS (
          SELECT substr(decided_at, 1, 10) AS day, profile, count(*) AS n FROM decisions
          WHERE decided_at >= @since AND decided_at < @end GROUP BY 1, 2),
        gini AS (
          SELECT day, 2.0 * sum(rank * n) / (count(*) * sum(n)) - (count(*) + 1.0) / count(*) AS gini FROM (
            SELECT day, n, row_number() OVER (PARTITION BY day ORDER BY n) AS rank FROM shown)
          GROUP BY day)
        SELECT days.day AS period, coalesce(active, 0) AS active, coalesce(likes, 0) AS likes,
               coalesce(superlikes, 0) AS superlikes, coalesce(hates, 0) AS hates, coalesce(matches, 0) AS matches,
               1.0 * (likes + superlikes) / nullif(likes + superlikes + hates, 0) AS like_rate,
               100.0 * coalesce(matches, 0) / nullif(likes + superlikes, 0) AS matches_per_100_likes,
               coalesce(conversations, 0) AS conversations, coalesce(replied, 0) AS replied,
               median AS median_hours_to_first_message, gini AS exposure_gini
        FROM days LEFT JOIN decided USING (day) LEFT JOIN acting USING (day) LEFT JOIN matched USING (day)
             LEFT JOIN talked USING (day) LEFT JOIN middle USING (day) LEFT JOIN gini USING (day)
        ORDER BY days.day;
        """

    /// The sqlite3 shell's script: the range's parameters, then the query.
    static var script: String {
        let end = "2026-01-08T00:00:00.000Z"  // the day after `until`, exclusive
        return """
            .parameter init
            .parameter set @since_day "'\(since)'"
            .parameter set @until_day "'\(until)'"
            .parameter set @since "'\(since)T00:00:00.000Z'"
            .parameter set @end "'\(end)'"
            .headers on
            .mode csv
            \(sql)

            """
    }

    func run() throws -> [ReportRow] {
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        let rssFile = "\(data.directory)/insights-rss.txt"
        let scriptFile = "\(data.directory)/insights-query.sql"
        try Self.script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        let swipeCommand = [
            swipe, "insights", "--db", data.workDB, "--since", Self.since, "--until", Self.until, "--by", "day",
            "--format", "csv",
        ]
        let shellCommand = [sqlite3, data.workDB, ".read \(scriptFile)"]
        // The same numbers first: every key of every day.
        let swipeCSV = try Self.output(swipeCommand), shellCSV = try Self.output(shellCommand)
        try Self.compare(swipeCSV, shellCSV)
        log("insights \(data.label): both give the same \(swipeCSV.split(whereSeparator: \.isNewline).count - 1) rows")

        var rss = [0, 0]
        func timed(_ command: [String], _ slot: Int) throws -> Samples {
            let wrapped = timeTool.map { [$0, "-f", "%M", "-o", rssFile] + command } ?? command
            let outcome = try ChildProcess.check(wrapped)
            rss[slot] = max(rss[slot], try timeTool.map { _ in try ImportBench.kilobytes(in: rssFile) * 1024 } ?? 0)
            return Samples([outcome.seconds])
        }
        log("insights \(data.label): \(runs) alternated runs …")
        let results = try Alternation.run(
            runs: runs, [{ try timed(swipeCommand, 0) }, { try timed(shellCommand, 1) }])
        for name in [rssFile, scriptFile] { unlink(name) }
        let swipeTime = results[0].medianOfMedians, shellTime = results[1].medianOfMedians

        // A history page since a time, for the viewer with 200k decisions and a light one.
        let store = try SQLiteStore(path: data.workDB)
        let roles = data.roles
        let heavy = ProfileCSVWriter.id(roles.heavyViewer), light = ProfileCSVWriter.id(roles.fewMatchesViewer)
        let heavyCount = try store.history(HistoryQuery(viewer: heavy)).count
        let since = "2026-01-02T00:00:00.000Z"
        func page(_ viewer: String) throws -> Samples {
            var samples = Samples()
            for _ in 0..<200 {
                samples.append(
                    try Clock.time { _ = try store.history(HistoryQuery(viewer: viewer, since: since, limit: 20)) })
            }
            return samples
        }
        log("history --since \(data.label): \(runs) alternated runs …")
        let pages = try Alternation.run(runs: runs, [{ try page(heavy) }, { try page(light) }])
        func describe(_ runs: [Samples]) -> String {
            "p50 \(duration(runs.medianOfMedians)), p99 \(duration(runs.pooled.quantile(0.99)))"
        }
        let p99 = pages[0].pooled.quantile(0.99)
        return [
            ReportRow(
                benchmark: "insights --by day (\(data.label), \(Self.since)…\(Self.until)) vs one SQL query in sqlite3",
                swipe: duration(swipeTime), baseline: duration(shellTime), ratio: swipeTime / shellTime,
                target: "≤ 1.5×", met: swipeTime <= 1.5 * shellTime),
            ReportRow(
                benchmark: "insights --by day (\(data.label)): peak RSS, swipe vs sqlite3",
                swipe: timeTool == nil ? "–" : megabytes(rss[0]), baseline: timeTool == nil ? "–" : megabytes(rss[1])),
            ReportRow(
                benchmark:
                    "history --since page of 20 (\(data.label)): heavy viewer (\(heavyCount) decisions) vs light",
                swipe: describe(pages[0]), baseline: describe(pages[1]),
                ratio: pages[0].medianOfMedians / pages[1].medianOfMedians, target: "p99 ≤ 2 ms", met: p99 <= 0.002),
        ]
    }

    /// What `command` prints on standard output (it must exit 0).
    static func output(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(command.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws unless both CSV texts hold the same header and, cell by cell,
    /// the same text or numbers equal to 1e-9 (the shell prints reals its own way).
    static func compare(_ swipe: String, _ shell: String) throws {
        func rows(_ text: String) -> [[String]] {
            text.split(whereSeparator: \.isNewline).map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
        }
        let a = rows(swipe), b = rows(shell)
        guard a.count == b.count, a.count > 1, a.first == b.first else {
            throw BenchError("insights: swipe and the SQL query differ in shape:\n\(swipe)\n---\n\(shell)")
        }
        for (x, y) in zip(a, b) where x != y {
            let same =
                x.count == y.count
                && zip(x, y).allSatisfy { u, v in
                    u == v
                        || (Double(u).flatMap { p in Double(v).map { abs(p - $0) <= 1e-9 * max(1, abs(p)) } } ?? false)
                }
            if !same { throw BenchError("insights: swipe says \(x), the SQL query \(y)") }
        }
    }
}
