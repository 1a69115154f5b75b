import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

@Suite struct LedgerTests {
    let stores = TestStores()
    // 2026-11-20T23:55:01.123Z = 20_777 days × 86_400 + 86_101 s (23 h 55 min 1 s)
    let t0 = Date(timeIntervalSince1970: 1_795_218_901.123)
    var t1: Date { t0.addingTimeInterval(60) }

    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(Timestamp.string(from: t0) == "2026-11-20T23:55:01.123Z")
        #expect(Timestamp.normalized("2026-11-20") == "2026-11-20T00:00:00.000Z")
        #expect(Timestamp.normalized("2026-11-20T23:55:01Z") == "2026-11-20T23:55:01.000Z")
        #expect(Timestamp.normalized("2026-02-31") == nil)
        #expect(Timestamp.normalized("yesterday") == nil)
    }

    @Test(arguments: TestBackend.all) func recordsOnceAndTheDatabaseEnforcesIt(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        let recorded = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag, at: t0)
        #expect(recorded.decidedAt == "2026-11-20T23:55:01.123Z")
        #expect(recorded.match == nil)
        #expect(
            throws: StoreError.alreadyDecided(viewer: "a", profile: "b", decision: .like, decidedAt: recorded.decidedAt)
        ) {
            try store.record(viewer: "a", profile: "b", decision: .hate, via: .button)
        }
    }

    /// SQLite's own guard: even raw SQL cannot add a second standing decision.
    @Test func theSQLiteSchemaRefusesASecondStandingDecision() throws {
        let store = try stores.folder.store(profiles: ["a", "b"])
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag, at: t0)
        // The partial unique index refuses.
        #expect(throws: SQLiteError.self) {
            try store.connection.execute(
                "INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (1, 2, 'hate', 'drag', '2026-11-21T00:00:00.000Z')"
            )
        }
    }

    @Test(arguments: TestBackend.all) func mutualLikeMakesAMatchAtTheLaterTime(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag, at: t0)
        let second = try store.record(viewer: "b", profile: "a", decision: .superlike, via: .button, at: t1)
        #expect(second.match == Match(profile: "a", name: "Name a", matchedAt: "2026-11-20T23:56:01.123Z"))
        #expect(
            try store.matches(viewer: "a") == [
                Match(profile: "b", name: "Name b", matchedAt: "2026-11-20T23:56:01.123Z")
            ])
        #expect(try store.matches(viewer: "b").map(\.profile) == ["a"])
    }

    @Test(arguments: TestBackend.all) func undoKeepsTheRowAndUnmakesTheMatch(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag, at: t0)
        _ = try store.record(viewer: "b", profile: "a", decision: .like, via: .drag, at: t1)
        let undone = try store.undo(viewer: "b", profile: "a", at: t1.addingTimeInterval(1))
        #expect(undone.unmatched)
        #expect(undone.undoneAt == "2026-11-20T23:56:02.123Z")
        #expect(try store.matches(viewer: "a").isEmpty)
        let history = try store.history(HistoryQuery(viewer: "b"))
        #expect(history.count == 1)
        #expect(history.first?.undoneAt == "2026-11-20T23:56:02.123Z")
        // After undo a new decision may stand again.
        _ = try store.record(viewer: "b", profile: "a", decision: .hate, via: .button, at: t1.addingTimeInterval(2))
        #expect(try store.history(HistoryQuery(viewer: "b")).count == 2)
        #expect(throws: StoreError.notDecided(viewer: "a", profile: "a")) { try store.undo(viewer: "a", profile: "a") }
    }

    @Test(arguments: TestBackend.all) func hatingSomeoneWhoLikesYouIsAMissedMatch(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        _ = try store.record(viewer: "b", profile: "a", decision: .superlike, via: .drag, at: t0)
        let hate = try store.record(viewer: "a", profile: "b", decision: .hate, via: .drag, at: t1)
        #expect(hate.missedMatch)
        #expect(hate.match == nil)
        let missed = try store.missedMatches(viewer: "a")
        #expect(missed.map(\.profile) == ["b"])
        #expect(missed.first?.theirDecision == .superlike)
    }

    @Test(arguments: TestBackend.all) func historyFilters(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["v", "p1", "p2", "p3"])
        _ = try store.record(viewer: "v", profile: "p1", decision: .like, via: .drag, at: t0)
        _ = try store.record(viewer: "v", profile: "p2", decision: .hate, via: .drag, at: t1)
        _ = try store.record(viewer: "v", profile: "p3", decision: .like, via: .detail, at: t1.addingTimeInterval(60))
        #expect(try store.history(HistoryQuery(viewer: "v")).map(\.profile) == ["p3", "p2", "p1"])
        #expect(try store.history(HistoryQuery(viewer: "v", decision: .like)).map(\.profile) == ["p3", "p1"])
        #expect(
            try store.history(HistoryQuery(viewer: "v", since: "2026-11-20T23:56:01.123Z")).map(\.profile) == [
                "p3", "p2",
            ])
        #expect(try store.history(HistoryQuery(viewer: "v", limit: 1)).map(\.profile) == ["p3"])
        #expect(try store.history(HistoryQuery(viewer: "v", profile: "p2")).map(\.decision) == [.hate])
        // An undone decision still names its profile for completion; a new viewer has none.
        try store.undo(viewer: "v", profile: "p1")
        #expect(try store.decidedProfileIDs(viewer: "v") == ["p1", "p2", "p3"])
        #expect(try store.decidedProfileIDs(viewer: "p1") == [])
    }

    @Test(arguments: TestBackend.all) func viewerResolutionOrder(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b"])
        #expect(throws: ViewerError.noneChosen) { try store.resolveViewer(nil) }
        #expect(throws: ViewerError.noneChosen) { try store.resolveViewer("") }
        #expect(throws: ViewerError.notAProfile("zed")) { try store.resolveViewer("zed") }
        #expect(try store.resolveViewer("b") == "b")
        #expect(try store.resolveViewer("a") == "a")
        // Resolving remembers nothing (a read must not pick the next REPL's
        // viewer); a REPL session remembers its viewer explicitly.
        #expect(try store.lastViewer() == nil)
        #expect(throws: ViewerError.noneChosen) { try store.resolveViewer(nil) }
        try store.setLastViewer("a")
        #expect(try store.resolveViewer(nil) == "a")
        #expect(try store.resolveViewer("b") == "b")
        #expect(try store.lastViewer() == "a")
    }
}
