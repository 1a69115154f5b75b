import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Text survives every path byte for byte, ends trimmed (Documentation/REPL.md,
/// "Free text"; issue 37): `say p-024 I'm free at 8, aren't you?  "quoted"  x`
/// was stored as `Im free at 8, arent you? quoted x`. Twelve hostile texts
/// through the REPL (`say`, `me set bio`, `report`), JSON mode and `swipe
/// send`, read back with `swipe messages --format json`, `swipe me` and
/// `swipe reports`.
@Suite final class HostileTextTests {
    let temporary = TemporaryFolder("swipe-hostile-text")
    var db: String { temporary.path + "/swipe.sqlite" }

    static let texts = HostileTexts.all

    init() throws {
        let store = try SQLiteStore(path: temporary.path + "/swipe.sqlite")
        // A burst of messages to one person: the rule messages-per-minute is ModerationTests'.
        try store.setRule("messages-per-minute", "1000000")
        for id in ["demo", "p-2"] + (1...12).map({ "r-\($0)" }) {
            try store.upsert(Profile(id: id, name: "Name \(id)", age: 30))
        }
        _ = try store.record(viewer: "p-2", profile: "demo", decision: .like, via: .button)
        _ = try store.record(viewer: "demo", profile: "p-2", decision: .like, via: .button)
        for n in 1...12 { _ = try store.record(viewer: "demo", profile: "r-\(n)", decision: .hate, via: .button) }
    }

    func repl(_ lines: [String], json: Bool = true) throws -> [[String: Any]] {
        let input = temporary.file("in-" + UUID().uuidString, lines.joined(separator: "\n") + "\n")
        let result = try SwipeBinary.run(
            ["repl"] + (json ? ["--json"] : []) + ["--db", db, "--as", "demo"], stdin: input)
        return result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func bodies() throws -> [String] {
        let read = try SwipeBinary.run(["messages", "--db", db, "--as", "demo", "p-2", "--format", "json"])
        let rows = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { ($0["body"] ?? $0["text"]) as? String }
    }

    @Test func sayInJSONModeAndInTextModeStoresEachTextAsTyped() throws {
        let answers = try repl(Self.texts.map { "say p-2 " + $0 })
        #expect(answers.count == 12 && answers.allSatisfy { $0["ok"] as? Bool == true }, "\(answers)")
        // Text mode, with spaces around the text (its ends are trimmed).
        _ = try repl(Self.texts.map { "say   p-2   " + $0 + "  " }, json: false)
        #expect(try bodies() == Self.texts + Self.texts)
    }

    @Test func swipeSendStoresEachTextAsGiven() throws {
        for text in Self.texts {
            let sent = try SwipeBinary.run(["send", "--db", db, "--as", "demo", "p-2", "--", text])
            #expect(sent.status == 0, "\(text): \(sent.stderr)")
        }
        #expect(try bodies() == Self.texts)
    }

    @Test func meSetBioKeepsEachTextAsTyped() throws {
        for text in Self.texts {
            let answers = try repl(["me set bio " + text, "me"])
            try #require(answers.count == 2)
            #expect(answers[0]["ok"] as? Bool == true, "\(answers[0])")
            #expect((answers[1]["me"] as? [String: Any])?["bio"] as? String == text)
            let shown = try SwipeBinary.run(["me", "--db", db, "--as", "demo", "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8))
            let me = (object as? [[String: Any]])?.first ?? (object as? [String: Any])
            #expect(((me?["me"] as? [String: Any]) ?? me)?["bio"] as? String == text, "\(shown.stdout.prefix(300))")
        }
    }

    /// A report's reason is at most 1,000 characters: the 2,000-character
    /// line goes as its first 1,000.
    @Test func reportKeepsEachReasonAsTyped() throws {
        let reasons = Self.texts.map { String($0.unicodeScalars.prefix(1_000)) }
        let answers = try repl(reasons.enumerated().map { "report r-\($0.offset + 1) " + $0.element })
        #expect(answers.allSatisfy { $0["ok"] as? Bool == true }, "\(answers)")
        let listed = try SwipeBinary.run(["reports", "--db", db, "--format", "json"])
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.compactMap { $0["reason"] as? String } == reasons)
    }
}
