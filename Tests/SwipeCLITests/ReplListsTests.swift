import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// Lists that act (Documentation/REPL.md, "Lists that act"): `open ID` /
/// `profile ID` opens someone met in a list, `like ID` likes back from
/// `likes`, with the deck's rules; in text and JSON mode.
@Suite final class ReplListsTests {
    let temporary = TemporaryFolder("swipe-repl-lists")
    var path: String { temporary.path + "/lists.sqlite" }

    /// v matches a; c likes v; d never met v (and v's deck shows no one: v seeks nobody there).
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["v", "a", "c", "d"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag)
        _ = try store.record(viewer: "a", profile: "v", decision: .like, via: .drag)
        _ = try store.record(viewer: "c", profile: "v", decision: .superlike, via: .drag)
        _ = try store.record(viewer: "v", profile: "d", decision: .hate, via: .drag)
        _ = try store.undo(viewer: "v", profile: "d", at: nil)
        _ = try store.setPreferences(viewer: "v", PreferencesChange(ages: 90...99))
    }

    func session(_ format: ReplFormat = .text(ReplStyle(color: false))) throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: "v", format: format, pictures: false)
    }

    @Test func aLikerOpensAndIsLikedBackFromTheirPage() throws {
        var session = try session()
        var out = ""
        #expect(session.run("likes", into: &out))
        #expect(out.contains("c"))
        out = ""
        #expect(session.run("open c", into: &out), "\(out)")
        #expect(out.contains("→ opened the profile of Name c (c)"))
        #expect(session.prompt == "swipe[profile Name c]> ")
        out = ""
        #expect(session.run("like", into: &out), "\(out)")
        #expect(out.contains("liked Name c (c) by detail"))
        #expect(out.contains("It's a match!"))
        #expect(session.prompt == "swipe[empty]> ", "back on the (empty) deck")
        #expect(try SQLiteStore(path: path).matches(viewer: "v").map(\.profile).sorted() == ["a", "c"])
    }

    @Test func likeIDLikesBackAtOnceInJSONMode() throws {
        var session = try session(.json)
        var out = ""
        #expect(session.run("like c", into: &out), "\(out)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect((answer["decision"] as? [String: Any])?["profile"] as? String == "c")
        #expect((answer["decision"] as? [String: Any])?["via"] as? String == "detail")
        #expect(answer["match"] as? Bool == true)
        out = ""
        #expect(session.run("profile a", into: &out))
        let opened = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect((opened["opened"] as? [String: Any])?["name"] as? String == "Name a")
    }

    /// Someone in the history (an undone nope) opens too; `back` closes the page, deciding nothing.
    @Test func aPageFromTheHistoryClosesWithBack() throws {
        var session = try session()
        var out = ""
        #expect(session.run("open d", into: &out))
        #expect(session.run("back", into: &out))
        #expect(out.contains("← closed the profile of Name d (d)"))
        #expect(session.viewing == nil && session.prompt == "swipe[empty]> ")
        #expect(try SQLiteStore(path: path).history(HistoryQuery(viewer: "v")).filter { $0.undoneAt == nil }.count == 1)
    }

    /// A standing decision is refused as on the deck; someone never met and
    /// an id that is nobody get the same words.
    @Test func whatTheDeckRefusesAndStrangersAreRefused() throws {
        var session = try session()
        var out = ""
        #expect(!session.run("like a", into: &out))
        #expect(out.contains("error:") && out.contains("a"))
        let store = try SQLiteStore(path: path)
        try store.upsert(Profile(id: "e", name: "Name e", age: 30))
        out = ""
        #expect(!session.run("open e", into: &out))
        let stranger = out
        out = ""
        #expect(!session.run("open nosuch", into: &out))
        #expect(
            stranger.replacingOccurrences(of: "open e", with: "open X")
                == out.replacingOccurrences(of: "open nosuch", with: "open X"))
        #expect(!session.run("like e", into: &out))
        #expect(try store.history(HistoryQuery(viewer: "v")).filter { $0.profile == "e" }.isEmpty)
    }
}

/// Undoing the like that made a match says the match ended, with its
/// conversation (issue 21), in text and in JSON mode.
@Suite final class ReplUndoMatchTests {
    let temporary = TemporaryFolder("swipe-repl-undo-match")
    var path: String { temporary.path + "/undo.sqlite" }

    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["w", "x"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "x", profile: "w", decision: .like, via: .drag)
    }

    func session(_ format: ReplFormat) throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: "w", format: format, pictures: false)
    }

    @Test func undoingTheLikeThatMatchedSaysTheMatchEnded() throws {
        var session = try session(.text(ReplStyle(color: false)))
        var out = ""
        #expect(session.run("superlike", into: &out))
        #expect(out.contains("It's a match!"))
        out = ""
        #expect(session.run("undo", into: &out))
        #expect(out.contains("↶ took back superlike of Name x (x); your match with Name x ended"), "\(out)")
        #expect(try SQLiteStore(path: path).matches(viewer: "w").isEmpty)
    }

    @Test func inJSONModeTheUndoneDecisionSaysSo() throws {
        var session = try session(.json)
        var out = ""
        #expect(session.run("like", into: &out))
        out = ""
        #expect(session.run("undo", into: &out))
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect((answer["undone"] as? [String: Any])?["match_ended"] as? Bool == true)
        out = ""
        // An undo that ended no match says false.
        #expect(session.run("hate", into: &out))
        out = ""
        #expect(session.run("undo", into: &out))
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect((plain["undone"] as? [String: Any])?["match_ended"] as? Bool == false)
    }
}
