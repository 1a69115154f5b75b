import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// A block hides both people from each other everywhere, answered exactly
/// as an id that never existed is (issue 36, defect 1). The reproduction:
/// demo likes pia-024, who then blocks demo and changes her bio; demo's
/// `open pia-024` answered the new bio and `like pia-024` said "no longer in the database",
/// which told demo they were blocked. On both backends, in text and JSON.
@Suite struct BlockHidesBothTests {
    let stores = TestStores("swipe-block-hides")

    /// demo, pia-024 (who will block demo) and x (who blocks nobody).
    func blockedStore(_ kind: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.store(kind, profiles: ["demo", "pia-024", "x"])
        _ = try store.record(viewer: "demo", profile: "pia-024", decision: .like, via: .button)
        _ = try store.record(viewer: "demo", profile: "x", decision: .hate, via: .button)
        _ = try store.record(viewer: "pia-024", profile: "demo", decision: .hate, via: .button)
        try store.block(viewer: "pia-024", profile: "demo")
        try store.upsert(Profile(id: "pia-024", name: "Name p", age: 30, bio: "moved to Porto, new number 555"))
        return store
    }

    func session(_ store: any SwipeDatabase, _ viewer: String, json: Bool) throws -> ReplSession {
        var session = try ReplSession(
            feed: try store.feed(viewer: viewer), ledger: ViewerScope(store: store, viewer: viewer),
            format: json ? .json : .text(ReplStyle(color: false)))
        session.layout = ReplLayout(pictures: false)
        return session
    }

    /// What `line` (naming `id`) answers, with `id` spelled `ID`.
    func answer(_ session: inout ReplSession, _ line: String, naming id: String) -> (ok: Bool, text: String) {
        var out = ""
        let ok = session.run(line, into: &out)
        return (ok, out.replacingOccurrences(of: id, with: "ID"))
    }

    @Test(arguments: TestBackend.all, [false, true])
    func theBlockedAndTheBlockerEachSeeTheOtherAsAnIDThatNeverExisted(_ kind: TestBackend, json: Bool) throws {
        let store = try blockedStore(kind)
        for (viewer, other) in [("demo", "pia-024"), ("pia-024", "demo")] {
            var session = try session(store, viewer, json: json)
            for verb in ["open", "profile", "like", "superlike", "hate", "history"] {
                let hidden = answer(&session, "\(verb) \(other)", naming: other)
                // An id of the same length, so that wrapped text wraps alike.
                let nobody = "n" + String(repeating: "0", count: other.count - 1)
                let never = answer(&session, "\(verb) \(nobody)", naming: nobody)
                #expect(!hidden.ok, "\(viewer): \(verb) \(other) answered \(hidden.text)")
                #expect(hidden.text == never.text, "\(viewer): \(verb)")
                #expect(!hidden.text.contains("Porto") && !hidden.text.contains("no longer"))
            }
            var out = ""
            #expect(session.run("history", into: &out))
            #expect(!out.contains(other), "\(viewer)'s history lists no decision about \(other): \(out)")
        }
        // x, whom demo passed on, is still in demo's history and opens.
        var session = try session(store, "demo", json: json)
        #expect(answer(&session, "open x", naming: "x").ok)
        // Nothing was decided by the refused likes and hates: lifted, the
        // block shows each history as it was.
        try store.unblock(viewer: "pia-024", profile: "demo")
        #expect(try store.history(HistoryQuery(viewer: "demo")).map(\.profile).sorted() == ["pia-024", "x"])
        #expect(try store.history(HistoryQuery(viewer: "pia-024")).map(\.profile) == ["demo"])
    }

    @Test(arguments: TestBackend.all)
    func theViewerScopeKnowsNeitherTheOtherNorTheirReasons(_ kind: TestBackend) throws {
        let store = try blockedStore(kind)
        for (viewer, other) in [("demo", "pia-024"), ("pia-024", "demo")] {
            let scope = ViewerScope(store: store, viewer: viewer)
            #expect(try scope.profile(other) == nil)
            #expect(try scope.name(of: other) == nil)
            #expect(throws: StoreError.unknownProfile(other)) { try scope.reasons(about: other) }
            #expect(throws: StoreError.unknownProfile(other)) { try scope.history(about: other) }
            #expect(try store.decidedProfileIDs(viewer: viewer).contains(other) == false)
        }
        #expect(try ViewerScope(store: store, viewer: "demo").profile("x")?.name == "Name x")
        // Lifted, both see each other again.
        try store.unblock(viewer: "pia-024", profile: "demo")
        #expect(
            try ViewerScope(store: store, viewer: "demo").profile("pia-024")?.bio == "moved to Porto, new number 555")
    }

    /// Ids cannot be probed (issue 36, defect 8): every command naming
    /// someone answers a stranger who exists, someone who blocked the
    /// viewer, an erased person and an id that never existed in the same
    /// words, on both backends; and nothing is written for any of them.
    @Test(arguments: TestBackend.all)
    func commandsNamingSomeoneAnswerStrangersBlockersTheErasedAndTheMissingAlike(_ kind: TestBackend) throws {
        let store = try stores.store(kind, profiles: ["v", "s-01", "b-01", "e-01"])
        try store.block(viewer: "b-01", profile: "v")
        _ = try store.record(viewer: "v", profile: "e-01", decision: .like, via: .button)
        _ = try store.erase(viewer: "e-01", at: nil)
        // v's deck deals no one (a card's person is someone v has met).
        _ = try store.setPreferences(viewer: "v", PreferencesChange(ages: 90...99))
        var session = try session(store, "v", json: true)
        for line in ["block ID", "report ID spam", "unblock ID", "unmatch ID", "say ID hello there", "chat ID"] {
            var answers: Set<String> = []
            for id in ["s-01", "b-01", "e-01", "n-01"] {
                let said = answer(&session, line.replacingOccurrences(of: "ID", with: id), naming: id)
                #expect(!said.ok, "\(line) \(id): \(said.text)")
                answers.insert(said.text)
            }
            #expect(answers.count == 1, "\(line): \(answers.sorted())")
        }
        #expect(try store.blocked(viewer: "v").isEmpty)
        #expect(try store.reports().isEmpty)
        // Someone met is acted on as before: v blocks and unblocks a card's person.
        _ = try store.record(viewer: "s-01", profile: "v", decision: .like, via: .button)
        #expect(answer(&session, "block s-01", naming: "s-01").ok)
        #expect(answer(&session, "unblock s-01", naming: "s-01").ok)
    }
}
