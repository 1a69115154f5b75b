import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// `--since` and `--until` on the REPL's lists (Documentation/Insights.md), in
/// text, JSON mode and command objects: only the rows stored in the window,
/// a date as `--until` meaning its whole day; bad input refused naming the
/// value. The expected rows are read off the dated ledger by hand.
@Suite final class ReplListWindowTests {
    let temporary = TemporaryFolder("swipe-repl-window")
    var path: String { temporary.path + "/window.sqlite" }

    static func day(_ text: String) -> Date { Timestamp.date(from: text)! }

    /// v decides a (Nov 1), b (Nov 10), c (Nov 20); a and c like v back the
    /// same days (two matches: Nov 1 and Nov 20); d likes v on Nov 12 and
    /// e on Nov 15, undecided; a writes v on Nov 14.
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["v", "a", "b", "c", "d", "e"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        for (id, day) in [
            ("a", "2026-11-01T09:00:00.000Z"), ("b", "2026-11-10T09:00:00.000Z"),
            ("c", "2026-11-20T09:00:00.000Z"),
        ] {
            _ = try store.record(viewer: "v", profile: id, decision: .like, via: .drag, at: Self.day(day))
        }
        _ = try store.record(
            viewer: "a", profile: "v", decision: .like, via: .drag, at: Self.day("2026-11-01T10:00:00.000Z"))
        _ = try store.record(
            viewer: "c", profile: "v", decision: .like, via: .drag, at: Self.day("2026-11-20T10:00:00.000Z"))
        _ = try store.record(
            viewer: "d", profile: "v", decision: .like, via: .drag, at: Self.day("2026-11-12T10:00:00.000Z"))
        _ = try store.record(
            viewer: "e", profile: "v", decision: .like, via: .drag, at: Self.day("2026-11-15T23:59:00.000Z"))
        _ = try store.send(
            MessageSend(viewer: "a", profile: "v", text: "hi", clientID: "1", at: Self.day("2026-11-14T08:00:00.000Z")))
    }

    func json(_ line: String) throws -> [String: Any] {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .json)
        var out = ""
        session.run(line, into: &out)
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    }

    func ids(_ answer: [String: Any], _ key: String, _ id: String = "profile") -> [String] {
        (answer[key] as? [[String: Any]] ?? []).compactMap { $0[id] as? String }
    }

    @Test func eachListKeepsOnlyItsRowsInTheWindow() throws {
        #expect(ids(try json("history --since 2026-11-05 --until 2026-11-15"), "history") == ["b"])
        #expect(ids(try json("history --until 2026-11-10"), "history").sorted() == ["a", "b"], "a date: its whole day")
        #expect(ids(try json("history b --since 2026-11-11"), "history") == [], "with a profile id too")
        #expect(ids(try json("matches --since 2026-11-02"), "matches") == ["c"])
        #expect(ids(try json("likes --until 2026-11-15"), "likes") == ["d", "e"])
        #expect(ids(try json("likes --until 2026-11-15T12:00:00Z"), "likes") == ["d"])
        #expect(ids(try json("inbox --since 2026-11-13 --until 2026-11-14"), "inbox") == ["a"], "by its last message")
        #expect(ids(try json("inbox --since 2026-11-15"), "inbox") == ["c"], "before its first message, by its match")
    }

    @Test func aCommandObjectTakesSinceAndUntilByName() throws {
        let answer = try json(#"{"cmd":"history","since":"2026-11-05","until":"2026-11-15","tag":1}"#)
        #expect(ids(answer, "history") == ["b"] && answer["tag"] as? Int == 1, "\(answer)")
        #expect(ids(try json(#"{"cmd":"likes","since":"2026-11-13"}"#), "likes") == ["e"])
    }

    @Test(arguments: [
        ("history --since yesterday", #"history: --since takes a UTC time like 2026-11-20"#),
        ("matches --since 2026-11-20 --until 2026-11-01", "is after --until"),
        ("likes --until", "likes: --until needs a date or time"),
        (#"{"cmd":"inbox","since":"soon"}"#, #"inbox: "since" takes a UTC time"#),
    ])
    func badInputIsRefusedNamingTheValue(line: String, words: String) throws {
        let answer = try json(line)
        #expect(answer["ok"] as? Bool == false)
        #expect((answer["error"] as? String)?.contains(words) == true, "\(answer)")
    }

    @Test func textModeListsTheSameRows() throws {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .text(.plain), pictures: false)
        var out = ""
        #expect(session.run("history --since 2026-11-05 --until 2026-11-15", into: &out))
        #expect(
            out.contains("2026-11-10T09:00:00.000Z") && !out.contains("2026-11-01T") && !out.contains("2026-11-20T"))
    }
}

/// `matches --with-messages` in the REPL, JSON mode and a command object: each
/// match with its conversation's message count and last message time.
@Suite final class ReplMatchesWithMessagesTests {
    let temporary = TemporaryFolder("swipe-repl-with-messages")
    var path: String { temporary.path + "/with.sqlite" }

    /// v matches a (3 messages, the last at 10:02) and b (none).
    init() throws {
        let store = try SQLiteStore(path: path)
        try store.setRule("messages-per-minute", "1000000")
        for id in ["v", "a", "b"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        for id in ["a", "b"] {
            _ = try store.record(viewer: "v", profile: id, decision: .like, via: .drag)
            _ = try store.record(viewer: id, profile: "v", decision: .like, via: .drag)
        }
        for (n, from, to) in [(0, "a", "v"), (1, "v", "a"), (2, "a", "v")] {
            _ = try store.send(
                MessageSend(
                    viewer: from, profile: to, text: "m\(n)", clientID: "\(n)",
                    at: Timestamp.date(from: "2030-01-01T10:0\(n):00.000Z")))
        }
    }

    func json(_ line: String) throws -> [[String: Any]] {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .json)
        var out = ""
        session.run(line, into: &out)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        return try #require(answer["matches"] as? [[String: Any]], "\(answer)")
    }

    @Test func eachMatchCarriesItsConversation() throws {
        for line in ["matches --with-messages", #"{"cmd":"matches","with_messages":true}"#] {
            let byID = Dictionary(uniqueKeysWithValues: try json(line).map { ($0["profile"] as? String ?? "", $0) })
            #expect(byID["a"]?["messages"] as? Int == 3, "\(line)")
            #expect(byID["a"]?["last_message_at"] as? String == "2030-01-01T10:02:00.000Z", "\(line)")
            #expect(byID["b"]?["messages"] as? Int == 0 && byID["b"]?["last_message_at"] is NSNull, "\(line)")
        }
        let plain = try json(#"{"cmd":"matches","with_messages":false}"#)
        #expect(plain.count == 2 && plain.allSatisfy { $0["messages"] == nil })
    }

    @Test func textSaysHowManyAndWhen() throws {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .text(.plain), pictures: false)
        var out = ""
        #expect(session.run("matches --with-messages", into: &out))
        #expect(
            out.range(
                of: #"★ a Name a · matched \S+\n  3 messages, last 2030-01-01T10:02:00.000Z\n"#,
                options: .regularExpression)
                != nil, "\(out)")
        #expect(out.range(of: #"★ b Name b · matched \S+\n  no messages yet\n"#, options: .regularExpression) != nil)
        #expect(!session.run("matches --with-photos", into: &out))
        #expect(out.contains("matches takes --with-messages, --since D and --until D"))
    }
}
