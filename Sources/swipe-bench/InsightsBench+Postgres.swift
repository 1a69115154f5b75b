import Foundation

/// `swipe insights --by day` on PostgreSQL, next to `psql` running the same
/// numbers as one hand-written query (`InsightsBench.postgresSQL`), on the
/// data set imported into a fresh database; compared number by number first.
extension InsightsBench {
    /// Every key of every day, PostgreSQL's dialect of `InsightsBench.sql`:
    /// prepared, so the range is bound ($1 the first day, $2 the last, $3 the
    /// first time, $4 the end, exclusive).
    static let postgresSQL = """
        PREPARE insights(date, date, text, text) AS
        WITH
        days AS (SELECT to_char(d, 'YYYY-MM-DD') AS day FROM generate_series($1, $2, interval '1 day') AS g(d)),
        decided AS (
          SELECT substr(decided_at, 1, 10) AS day,
                 count(*) FILTER (WHERE decision = 'like' AND undone_at IS NULL) AS likes,
                 count(*) FILTER (WHERE decision = 'superlike' AND undone_at IS NULL) AS superlikes,
                 count(*) FILTER (WHERE decision = 'hate' AND undone_at IS NULL) AS hates
          FROM decisions WHERE decided_at >= $3 AND decided_at < $4 GROUP BY 1),
        acting AS (
          SELECT day, count(*) AS active FROM (
            SELECT substr(decided_at, 1, 10) AS day, viewer AS person FROM decisions
            WHERE decided_at >= $3 AND decided_at < $4
            UNION
            SELECT substr(sent_at, 1, 10), sender FROM messages WHERE sent_at >= $3 AND sent_at < $4) AS a
          GROUP BY day),
        matched AS (
          SELECT substr(matched_at, 1, 10) AS day, count(*) AS matches FROM matches
          WHERE matched_at >= $3 AND matched_at < $4 GROUP BY 1),
        talks AS (
          SELECT substr(f.sent_at, 1, 10) AS day,
                 extract(epoch FROM f.sent_at::timestamptz - m.matched_at::timestamptz) / 3600 AS hours,
                 CASE WHEN EXISTS (SELECT 1 FROM messages AS r
                                   WHERE r.low = f.low AND r.high = f.high AND r.sender = f.recipient)
                      THEN 1 ELSE 0 END AS replied
          FROM messages AS f JOIN matches AS m ON m.low = f.low AND m.high = f.high
          WHERE f.seq = 1 AND f.sent_at >= $3 AND f.sent_at < $4),
        talked AS (
          SELECT day, count(*) AS conversations, sum(replied) AS replied,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY hours) AS median
          FROM talks GROUP BY day),
        shown AS (
          SELECT substr(decided_at, 1, 10) AS day, profile, count(*) AS n FROM decisions
          WHERE decided_at >= $3 AND decided_at < $4 GROUP BY 1, 2),
        gini AS (
          SELECT day, 2.0 * sum(rank * n) / (count(*) * sum(n)) - (count(*) + 1.0) / count(*) AS gini FROM (
            SELECT day, n, row_number() OVER (PARTITION BY day ORDER BY n) AS rank FROM shown) AS s
          GROUP BY day)
        SELECT days.day AS period, coalesce(active, 0) AS active, coalesce(likes, 0) AS likes,
               coalesce(superlikes, 0) AS superlikes, coalesce(hates, 0) AS hates, coalesce(matches, 0) AS matches,
               1.0 * (likes + superlikes) / nullif(likes + superlikes + hates, 0) AS like_rate,
               100.0 * coalesce(matches, 0) / nullif(likes + superlikes, 0) AS matches_per_100_likes,
               coalesce(conversations, 0) AS conversations, coalesce(replied, 0) AS replied,
               median AS median_hours_to_first_message, gini AS exposure_gini
        FROM days LEFT JOIN decided USING (day) LEFT JOIN acting USING (day) LEFT JOIN matched USING (day)
             LEFT JOIN talked USING (day) LEFT JOIN gini USING (day)
        ORDER BY days.day;
        EXECUTE insights('\(since)', '\(until)', '\(since)T00:00:00.000Z', '2026-01-08T00:00:00.000Z');

        """

    static func postgres(data: DataSet, swipe: String, psql: String, adminURI: String, runs: Int) throws
        -> [ReportRow]
    {
        let name = "swipe_bench_insights"
        let uri = try BenchDatabase.fresh(name, adminURI: adminURI)
        defer { BenchDatabase.drop(name, adminURI: adminURI) }
        log("insights on PostgreSQL: importing the \(data.label) profiles and decisions …")
        _ = try ChildProcess.check([swipe, "import", "--db", uri, "--quiet", data.profilesCSV])
        _ = try ChildProcess.check([swipe, "import", "--db", uri, "--quiet", "--decisions", data.decisionsCSV])
        let scriptFile = "\(data.directory)/insights-query.psql"
        let rssFile = "\(data.directory)/insights-pg-rss.txt"
        try postgresSQL.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        defer { for file in [scriptFile, rssFile] { unlink(file) } }
        let swipeCommand = [
            swipe, "insights", "--db", uri, "--since", since, "--until", until, "--by", "day", "--format", "csv",
        ]
        let psqlCommand = [psql, "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1", "-d", uri, "-f", scriptFile]
        try compare(try output(swipeCommand), try output(psqlCommand))
        log("insights on PostgreSQL \(data.label): both give the same rows")
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        var rss = 0
        log("insights on PostgreSQL \(data.label): \(runs) alternated runs …")
        let results = try Alternation.run(
            runs: runs,
            [
                {
                    let wrapped = timeTool.map { [$0, "-f", "%M", "-o", rssFile] + swipeCommand } ?? swipeCommand
                    let outcome = try ChildProcess.check(wrapped)
                    if timeTool != nil { rss = max(rss, try ImportBench.kilobytes(in: rssFile) * 1024) }
                    return Samples([outcome.seconds])
                },
                { Samples([try ChildProcess.check(psqlCommand).seconds]) },
            ])
        let swipeTime = results[0].medianOfMedians, psqlTime = results[1].medianOfMedians
        return [
            ReportRow(
                benchmark: "insights --by day on PostgreSQL (\(data.label)) vs one SQL query in psql",
                swipe: duration(swipeTime) + (timeTool == nil ? "" : " (peak RSS \(megabytes(rss)))"),
                baseline: duration(psqlTime), ratio: swipeTime / psqlTime, target: "≤ 1.5×",
                met: swipeTime <= 1.5 * psqlTime)
        ]
    }
}
