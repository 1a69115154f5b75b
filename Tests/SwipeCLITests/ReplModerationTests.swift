import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// The REPL's `moderate …` and `acknowledge` (Documentation/Moderation.md)
/// in sessions over one SQLite store: a moderator's actions with their free
/// text kept as typed, in text and JSON mode, a refusal for anyone else,
/// and the warnings a session shows first until acknowledged.
@Suite final class ReplModerationTests {
    let temporary = TemporaryFolder("swipe-repl-moderation")
    var path: String { temporary.path + "/moderation.sqlite" }

    /// m moderates; a reported b.
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["m", "a", "b"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        try store.grantModerator("m", by: nil, at: nil)
        try store.report(viewer: "a", profile: "b", reason: "fake photos")
    }

    func session(_ viewer: String, _ format: ReplFormat = .text(ReplStyle(color: false))) throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: viewer, format: format, pictures: false)
    }

    @Test func aModeratorWorksTheQueueAndFreeTextStaysAsTyped() throws {
        var session = try session("m")
        var out = ""
        #expect(session.run("moderate queue", into: &out))
        #expect(out.contains("1 open in the queue") && out.contains("b reported by a: fake photos (open reports: 1)"))
        out = ""
        #expect(session.run(#"moderate ban b --days 2 I'm "done" with  spam"#, into: &out))
        #expect(out.hasPrefix("→ b is suspended until ") && out.hasSuffix(#": I'm "done" with  spam"# + "\n"), "\(out)")
        out = ""
        #expect(session.run("moderate resolve 1 suspended for two days", into: &out))
        #expect(out == "→ resolved 1\n")
        let store = try SQLiteStore(path: path)
        #expect(try store.suspension(of: "b", at: nil)?.reason == #"I'm "done" with  spam"#)
        #expect(try store.moderationLog().map(\.action) == ["grant", "ban", "resolve"])
        out = ""
        #expect(!session.run("moderate bam b spam", into: &out))
        #expect(out.contains(#"did you mean "moderate ban"?"#), "\(out)")
        out = ""
        #expect(!session.run("moderate ban b --days x spam", into: &out))
        #expect(out.contains("moderate ban takes --days and a whole number of days"), "\(out)")
    }

    @Test func theSameCommandsAsObjectsInJSONMode() throws {
        var session = try session("m", .json)
        var out = ""
        #expect(session.run(#"{"cmd":"moderate","action":"warn","id":"a","reason":" be kind ","tag":7}"#, into: &out))
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(answer["message"] as? String == "a is warned: be kind")
        #expect(answer["cmd"] as? String == "moderate" && answer["tag"] as? Int == 7)
        out = ""
        #expect(session.run(#"{"cmd":"moderate","action":"queue"}"#, into: &out))
        let queue = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let items = try #require(queue["queue"] as? [[String: Any]])
        #expect(items.map { $0["item"] as? String } == ["1"] && items.first?["reports"] as? Int == 1)
        out = ""
        #expect(!session.run(#"{"cmd":"moderate","action":"ban","id":"b"}"#, into: &out))
        #expect(out.contains(#"moderate ban needs \"reason\""#), "\(out)")
    }

    @Test func anyoneElseIsRefusedAndNothingChanges() throws {
        var session = try session("a")
        var out = ""
        #expect(!session.run("moderate ban b spam", into: &out))
        #expect(out.contains("a is not a moderator"), "\(out)")
        #expect(try SQLiteStore(path: path).suspension(of: "b", at: nil) == nil)
    }

    @Test func warningsComeFirstUntilAcknowledged() throws {
        try SQLiteStore(path: path).warn("a", reason: "no spam, please", by: "m", at: nil)
        var session = try session("a")
        let lines = session.standingLines()
        #expect(lines.count == 2 && lines[0].hasSuffix(": no spam, please"))
        var out = ""
        #expect(session.run("acknowledge", into: &out))
        #expect(out == "acknowledged 1 warning; thank you\n")
        #expect(try self.session("a").standingLines().isEmpty)
    }
}
