import Foundation

/// `swipe profiles` over every profile in each format, next to the sqlite3
/// shell printing the same columns of the same database in its matching
/// mode, alternated, both read through a pipe. Also when swipe's first line
/// arrives and swipe's peak RSS (through GNU time, as ImportBench: a
/// posix_spawn child's ru_maxrss starts from the parent's).
struct OutputBench {
    let data: DataSet
    let swipe: String
    let sqlite3: String
    let runs: Int

    static let select = "SELECT id, name, age, gender, city, bio, photos, interests FROM profiles ORDER BY key"

    /// swipe's format, sqlite3's mode (with its header option) and the target ratio.
    static let cases: [(format: String, mode: [String], target: Double)] = [
        ("table", ["-table"], 2.0), ("json", ["-json"], 1.5), ("jsonl", ["-json"], 1.5),
        ("csv", ["-csv", "-header"], 1.5),
    ]

    func run() throws -> [ReportRow] {
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        let rssFile = "\(data.directory)/output-rss.txt"
        var rows: [ReportRow] = []
        var peakRSS = 0
        var slowestFirstLine = 0.0
        for test in Self.cases {
            var firstLines: [Double] = []
            let swipeCommand = [swipe, "profiles", "--db", data.workDB, "--format", test.format]
            log("output \(data.label) \(test.format): \(runs) alternated runs …")
            let results = try Alternation.run(
                runs: runs,
                [
                    {
                        let command = timeTool.map { [$0, "-f", "%M", "-o", rssFile] + swipeCommand } ?? swipeCommand
                        let outcome = try ChildProcess.streamed(command)
                        if timeTool != nil { peakRSS = max(peakRSS, try ImportBench.kilobytes(in: rssFile) * 1024) }
                        firstLines.append(outcome.firstByte)
                        return Samples([outcome.seconds])
                    },
                    {
                        Samples([try ChildProcess.streamed([sqlite3] + test.mode + [data.workDB, Self.select]).seconds])
                    },
                ])
            let swipeTime = results[0].medianOfMedians, shellTime = results[1].medianOfMedians
            let firstLine = Samples(firstLines).median
            slowestFirstLine = max(slowestFirstLine, Samples(firstLines).quantile(1))
            rows.append(
                ReportRow(
                    benchmark:
                        "profiles \(data.label) --format \(test.format) vs sqlite3 \(test.mode.joined(separator: " "))",
                    swipe: duration(swipeTime) + " (first line \(duration(firstLine)))", baseline: duration(shellTime),
                    ratio: swipeTime / shellTime, target: "≤ \(format(test.target, digits: 1))×",
                    met: swipeTime <= test.target * shellTime))
        }
        unlink(rssFile)
        rows.append(
            ReportRow(
                benchmark: "profiles \(data.label): slowest first line of any run, any format",
                swipe: duration(slowestFirstLine), target: "≤ 0.5 s", met: slowestFirstLine <= 0.5))
        if timeTool != nil {
            rows.append(
                ReportRow(
                    benchmark: "profiles \(data.label): peak RSS of swipe profiles, any format",
                    swipe: megabytes(peakRSS),
                    target: "< 64 MB", met: peakRSS < 64 << 20))
        }
        return rows
    }
}
