import Foundation
import SwipeTestSupport
import Testing

/// `swipe insights` as a user runs it (Documentation/Insights.md): every
/// format, the chart at 40, 80 and 200 columns, and bad input (exit 64),
/// on both backends.
@Suite final class InsightsCommandTests {
    let temporary = TemporaryFolder("swipe-insights-cli")
    var folder: String { temporary.path }
    let stores = TestStores()
    lazy var db: String = folder + "/db/swipe.sqlite"

    func swipe(_ arguments: [String], columns: Int? = nil) throws -> SwipeBinary.Result {
        try SwipeBinary.run(arguments, environment: columns.map { ["COLUMNS": String($0)] } ?? [:])
    }

    /// Four people in two cities; on 2026-11-02 a and b match (imported
    /// history, at the later like), c likes a and d passes on a; on 11-04 a
    /// hates c. On 11-03 c likes d. 11-01 is empty.
    func prepare(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: folder + "/db/swipe.sqlite")
        let profiles = "id,name,age,city\na,Ana,30,Oslo\nb,Bo,31,Bergen\nc,Cy,32,Oslo\nd,Di,33,Bergen\n"
        let decisions = """
            viewer,profile,decision,decided_at
            a,b,like,2026-11-02T08:00:00.000Z
            b,a,superlike,2026-11-02T10:30:00.000Z
            c,a,like,2026-11-02T12:00:00.000Z
            d,a,hate,2026-11-02T13:00:00.000Z
            c,d,like,2026-11-03T09:00:00.000Z
            a,c,hate,2026-11-04T09:00:00.000Z

            """
        #expect(try swipe(["import", "--db", db, temporary.file("p.csv", profiles)]).status == 0)
        let imported = try swipe(["import", "--decisions", "--db", db, temporary.file("d.csv", decisions)])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func insights(_ extra: [String], columns: Int? = nil) throws -> SwipeBinary.Result {
        try swipe(["insights", "--db", db, "--since", "2026-11-01", "--until", "2026-11-04"] + extra, columns: columns)
    }

    @Test(arguments: TestBackend.all) func everyFormatCarriesTheSameRows(_ backend: TestBackend) throws {
        try prepare(backend)
        let json = try insights(["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["period"] as? String } == ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"])
        #expect(
            Set(rows[0].keys) == [
                "period", "active", "likes", "superlikes", "hates", "matches", "like_rate", "matches_per_100_likes",
                "conversations", "replied", "median_hours_to_first_message", "exposure_gini",
            ])
        let day = rows[1]
        #expect(day["active"] as? Int == 4 && day["likes"] as? Int == 2 && day["superlikes"] as? Int == 1)
        #expect(day["hates"] as? Int == 1 && day["matches"] as? Int == 1)
        #expect(day["like_rate"] as? Double == 0.75)
        #expect((day["matches_per_100_likes"] as? Double).map { abs($0 - 100.0 / 3) < 1e-9 } == true)
        // a was decided 3 times, b once: Gini = |3-1|·2 / (2·2·4) = 0.25.
        #expect(day["exposure_gini"] as? Double == 0.25)
        #expect(rows[0]["like_rate"] is NSNull && rows[0]["exposure_gini"] is NSNull)

        let jsonl = try insights(["--format", "jsonl"])
        #expect(jsonl.stdout.split(separator: "\n").count == 4)
        let csv = try insights(["--format", "csv"])
        let lines = csv.stdout.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }
        #expect(lines.first.map(String.init)?.hasPrefix("period,active,likes,superlikes,hates,matches,") == true)
        #expect(lines.count == 5)
        let table = try insights([])
        #expect(table.status == 0 && table.stdout.contains("2026-11-03"))

        // One person's own rows, and one city's.
        let mine = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try insights(["--as", "a", "--by", "month", "--format", "json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(mine.count == 1 && mine[0]["period"] as? String == "2026-11")
        #expect(mine[0]["likes"] as? Int == 1 && mine[0]["hates"] as? Int == 1 && mine[0]["matches"] as? Int == 1)
        #expect(mine[0]["exposure_gini"] is NSNull)
        let oslo = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try insights(["--city", "Oslo", "--by", "week", "--format", "json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(oslo.map { $0["period"] as? String } == ["2026-W44", "2026-W45"])
        #expect(oslo[1]["likes"] as? Int == 3 && oslo[1]["matches"] as? Int == 1 && oslo[1]["hates"] as? Int == 1)
    }

    @Test(arguments: TestBackend.all) func theChartFitsTheTerminal(_ backend: TestBackend) throws {
        try prepare(backend)
        for columns in [40, 80, 200] {
            let chart = try insights(["--format", "chart", "--measure", "likes"], columns: columns)
            #expect(chart.status == 0, "\(chart.stderr)")
            let lines = chart.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 5, "a title and one bar per day")
            #expect(lines.allSatisfy { $0.count <= columns }, "\(columns): \(lines)")
            #expect(lines[2].hasPrefix("2026-11-02 │█") && lines[2].hasSuffix(" 2"))
            #expect(lines[1].hasSuffix(" 0"))
            #expect(lines.map(\.count).max()! >= columns - 1, "the longest bar uses the width")
        }
        let empty = try insights(["--format", "chart", "--measure", "conversations"])
        #expect(empty.status == 64 && empty.stdout.isEmpty)
        #expect(empty.stderr.contains("no data to chart: conversations"))
    }

    @Test(arguments: TestBackend.all) func badInputIsOneClearLineAndExit64(_ backend: TestBackend) throws {
        try prepare(backend)
        for (arguments, words) in [
            (["--since", "2026-11-09", "--until", "2026-11-01"], "after --until"),
            (["--since", "yesterday"], "\"yesterday\""),
            (["--measure", "swipes"], "\"swipes\""),
            (["--by", "year"], "year"),
        ] {
            let result = try swipe(["insights", "--db", db] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        let unknown = try swipe(["insights", "--db", db, "--as", "nobody"])
        #expect(unknown.status != 0 && unknown.stderr.contains("nobody"))
    }

    /// The ids a list command prints as JSON (`profile`), or nil when it failed.
    func listed(_ arguments: [String]) throws -> [String]? {
        let result = try swipe(arguments + ["--db", db, "--format", "json"])
        guard result.status == 0 else { return nil }
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return rows?.compactMap { ($0["profile"] ?? $0["id"]) as? String }
    }

    @Test(arguments: TestBackend.all) func listsFilterByTime(_ backend: TestBackend) throws {
        try prepare(backend)
        #expect(try listed(["history", "--as", "a"]) == ["c", "b"])
        #expect(try listed(["history", "--as", "a", "--since", "2026-11-03"]) == ["c"])
        #expect(try listed(["history", "--as", "a", "--until", "2026-11-02"]) == ["b"])
        #expect(
            try listed(["history", "--as", "a", "--since", "2026-11-02", "--until", "2026-11-02T08:00:00.000Z"]) == [
                "b"
            ])
        #expect(try listed(["history", "--as", "a", "--until", "2026-11-02T07:59:59.999Z"]) == [])
        #expect(try listed(["matches", "--as", "a", "--since", "2026-11-02", "--until", "2026-11-02"]) == ["b"])
        #expect(try listed(["matches", "--as", "a", "--until", "2026-11-01"]) == [])
        #expect(try listed(["matches", "--as", "a", "--since", "2026-11-03"]) == [])
        #expect(try listed(["likes", "--as", "d"]) == ["c"])
        #expect(try listed(["likes", "--as", "d", "--since", "2026-11-03", "--until", "2026-11-03"]) == ["c"])
        #expect(try listed(["likes", "--as", "d", "--until", "2026-11-02"]) == [])
        // The conversation's latest activity is its message, sent now.
        #expect(try swipe(["send", "--db", db, "--as", "a", "b", "hi"]).status == 0)
        #expect(try listed(["inbox", "--as", "b", "--since", "2026-11-02"]) == ["a"])
        #expect(try listed(["inbox", "--as", "b", "--until", "2026-11-04"]) == [])
        for list in ["history", "matches", "likes", "inbox"] {
            let reversed = try swipe([list, "--db", db, "--as", "a", "--since", "2026-11-05", "--until", "2026-11-01"])
            #expect(reversed.status == 64 && reversed.stderr.contains("after --until"), "\(list)")
            let malformed = try swipe([list, "--db", db, "--as", "a", "--until", "soon"])
            #expect(malformed.status == 64 && malformed.stderr.contains("\"soon\""), "\(list)")
        }
    }
}
