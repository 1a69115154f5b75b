import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// `insights` in the REPL, JSON mode and command objects (Documentation/Insights.md):
/// the viewer's own rows, a moderator's `--all`, and bad input refused with
/// one line naming the value, changing nothing. The counts are worked by
/// hand from the ledger each test makes.
@Suite final class ReplInsightsTests {
    let temporary = TemporaryFolder("swipe-repl-insights")
    var path: String { temporary.path + "/insights.sqlite" }
    let today = String(Timestamp.string(from: Date()).prefix(10))

    /// Today: v likes a and superlikes b, hates c; a likes v (a match) and
    /// writes first, v replies; c likes a.
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["v", "a", "b", "c", "m"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag)
        _ = try store.record(viewer: "v", profile: "b", decision: .superlike, via: .button)
        _ = try store.record(viewer: "v", profile: "c", decision: .hate, via: .drag)
        _ = try store.record(viewer: "a", profile: "v", decision: .like, via: .drag)
        _ = try store.record(viewer: "c", profile: "a", decision: .like, via: .drag)
        _ = try store.send(MessageSend(viewer: "a", profile: "v", text: "hi", clientID: "1"))
        _ = try store.send(MessageSend(viewer: "v", profile: "a", text: "hello", clientID: "2"))
        try store.grantModerator("m", by: nil, at: nil)
    }

    func run(_ line: String, as viewer: String = "v") throws -> [String: Any] {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: viewer, format: .json)
        var out = ""
        session.run(line, into: &out)
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    }

    @Test func theViewersOwnRowCountsWhatTheyDid() throws {
        let answer = try run("insights --since \(today) --until \(today)")
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        let rows = try #require(answer["insights"] as? [[String: Any]])
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row["period"] as? String == today)
        #expect(row["likes"] as? Int == 1 && row["superlikes"] as? Int == 1 && row["hates"] as? Int == 1, "\(row)")
        #expect(row["matches"] as? Int == 1 && row["conversations"] as? Int == 1, "\(row)")
        #expect(row["matches_per_100_likes"] as? Double == 50, "1 match of 2 likes: \(row)")
        #expect(Set(row.keys) == Set(InsightRow.keys))
    }

    @Test func allIsTheWholeMarketForAModeratorOnly() throws {
        let refused = try run("insights --all --since \(today) --until \(today)")
        #expect(refused["ok"] as? Bool == false)
        #expect((refused["error"] as? String)?.contains("moderator") == true, "\(refused)")
        let market = try run("insights --all --since \(today) --until \(today)", as: "m")
        let row = try #require((market["insights"] as? [[String: Any]])?.first, "\(market)")
        // Likes: v→a, a→v, c→a; the superlike v→b; one hate; one match.
        #expect(row["likes"] as? Int == 3 && row["superlikes"] as? Int == 1 && row["hates"] as? Int == 1, "\(row)")
        #expect(row["matches"] as? Int == 1)
    }

    @Test func aCommandObjectAsksTheSame() throws {
        let line = #"{"cmd":"insights","by":"week","since":"\#(today)","until":"\#(today)","tag":4}"#
        let answer = try run(line)
        #expect(answer["cmd"] as? String == "insights" && answer["tag"] as? Int == 4)
        let rows = try #require(answer["insights"] as? [[String: Any]])
        #expect(rows.count == 1 && (rows.first?["period"] as? String)?.contains("-W") == true, "\(rows)")
    }

    @Test(arguments: [
        ("insights --since 2026-13-01", "--since takes a UTC date or time like 2026-11-20"),
        ("insights --since 2026-11-20 --until 2026-11-01", "is after --until"),
        ("insights --by year", "--by takes day, week or month (got \"year\")"),
        ("insights --by", "--by needs a value"),
        ("insights --since 2026-11-01 --since 2026-11-02", "--since is given twice"),
        ("insights lately", "insights does not take \"lately\""),
        (#"{"cmd":"insights","all":"yes"}"#, #""all" is true or false"#),
        (#"{"cmd":"insights","since":"soon"}"#, #""since" takes a UTC date"#),
    ])
    func badInputIsOneLineNamingTheValue(line: String, words: String) throws {
        let answer = try run(line)
        #expect(answer["ok"] as? Bool == false)
        let error = try #require(answer["error"] as? String)
        #expect(error.contains(words), "\(error)")
        #expect(!error.contains("\n"))
    }

    @Test func textModeFitsFortyColumns() throws {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .text(.plain))
        session.layout.width = 40
        var out = ""
        #expect(session.run("insights --by month", into: &out))
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("period") == true, "\(out)")
        #expect(lines.count == 13, "a header and 12 months: \(out)")
        #expect(
            lines.last?.hasPrefix(String(today.prefix(7))) == true && lines.last?.hasSuffix("    50     1") == true,
            "\(out)")
        for line in lines { #expect(TerminalText.displayWidth(line) <= 40, "\(line)") }
    }
}
