import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// Daily quotas and rewind rules (README "Discovery"), with times worked by hand.
@Suite struct RulesTests {
    let stores = TestStores()
    // 2026-11-18T11:06:40.000Z (2026-11-20T23:55:01.123Z is 1_795_218_901.123)
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)
    static func at(hours: Double) -> Date { t0.addingTimeInterval(hours * 3600) }

    func store(_ backend: TestBackend) throws -> any SwipeDatabase {
        try stores.store(backend, profiles: ["v", "a", "b", "c", "d", "e", "f"])
    }

    @Test(arguments: TestBackend.all) func theQuotaIsARolling24HoursOfStandingLikes(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.setRule("likes-per-day", "2")
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag, at: Self.at(hours: 0))
        _ = try store.record(viewer: "v", profile: "b", decision: .like, via: .drag, at: Self.at(hours: 1))
        // Hate and superlike are not likes: never counted, never refused here.
        _ = try store.record(viewer: "v", profile: "c", decision: .hate, via: .drag, at: Self.at(hours: 2))
        _ = try store.record(viewer: "v", profile: "d", decision: .superlike, via: .drag, at: Self.at(hours: 2))
        // A third like within 24 hours: refused, freeing when the oldest (t0) is 24 hours old.
        #expect(throws: StoreError.quotaExceeded(decision: .like, limit: 2, freesAt: "2026-11-19T11:06:40.000Z")) {
            try store.record(viewer: "v", profile: "e", decision: .like, via: .drag, at: Self.at(hours: 3))
        }
        #expect(try store.history(HistoryQuery(viewer: "v")).count == 4, "the refusal wrote nothing")
        // Exactly 24 hours after t0 the first like has left the window.
        _ = try store.record(viewer: "v", profile: "e", decision: .like, via: .drag, at: Self.at(hours: 24))
        // An undone like no longer counts.
        #expect(throws: StoreError.self) {
            try store.record(viewer: "v", profile: "f", decision: .like, via: .drag, at: Self.at(hours: 24.5))
        }
        _ = try store.undo(viewer: "v", profile: "b", at: Self.at(hours: 24.5))
        _ = try store.record(viewer: "v", profile: "f", decision: .like, via: .drag, at: Self.at(hours: 24.5))
    }

    @Test(arguments: TestBackend.all) func superlikesHaveTheirOwnQuota(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.setRule("superlikes-per-day", "1")
        _ = try store.record(viewer: "v", profile: "a", decision: .superlike, via: .drag, at: Self.at(hours: 0))
        _ = try store.record(viewer: "v", profile: "b", decision: .like, via: .drag, at: Self.at(hours: 1))
        #expect(throws: StoreError.quotaExceeded(decision: .superlike, limit: 1, freesAt: "2026-11-19T11:06:40.000Z")) {
            try store.record(viewer: "v", profile: "c", decision: .superlike, via: .drag, at: Self.at(hours: 1))
        }
        _ = try store.setRule("superlikes-per-day", "off")
        _ = try store.record(viewer: "v", profile: "c", decision: .superlike, via: .drag, at: Self.at(hours: 1))
    }

    @Test(arguments: TestBackend.all) func rewindLastTakesBackOnlyTheNewestOnce(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.setRule("rewind", "last")
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag, at: Self.at(hours: 0))
        _ = try store.record(viewer: "v", profile: "b", decision: .hate, via: .drag, at: Self.at(hours: 1))
        #expect(throws: StoreError.rewindRefused(rule: .last, decision: .like)) {
            _ = try store.undo(viewer: "v", profile: "a", at: Self.at(hours: 2))
        }
        _ = try store.undo(viewer: "v", profile: "b", at: Self.at(hours: 2))
        // Once: the one before it stays.
        #expect(throws: StoreError.rewindRefused(rule: .last, decision: .like)) {
            _ = try store.undo(viewer: "v", profile: "a", at: Self.at(hours: 3))
        }
    }

    @Test(arguments: TestBackend.all) func rewindPassesAndOff(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.record(viewer: "v", profile: "a", decision: .like, via: .drag, at: Self.at(hours: 0))
        _ = try store.record(viewer: "v", profile: "b", decision: .hate, via: .drag, at: Self.at(hours: 1))
        _ = try store.setRule("rewind", "off")
        #expect(throws: StoreError.rewindRefused(rule: .off, decision: .hate)) {
            try store.undo(viewer: "v", profile: "b")
        }
        _ = try store.setRule("rewind", "passes")
        #expect(throws: StoreError.rewindRefused(rule: .passes, decision: .like)) {
            try store.undo(viewer: "v", profile: "a")
        }
        try store.undo(viewer: "v", profile: "b")
        _ = try store.setRule("rewind", "any")
        try store.undo(viewer: "v", profile: "a")
    }

    @Test(arguments: TestBackend.all) func badRuleValuesChangeNothing(_ backend: TestBackend) throws {
        let store = try store(backend)
        for (name, value) in [
            ("likes-per-day", "-1"), ("likes-per-day", "many"), ("rewind", "sometimes"), ("speed", "1"),
        ] {
            #expect(throws: StoreError.self, "\(name) \(value)") { try store.setRule(name, value) }
        }
        #expect(try store.rules() == Rules())
    }

    /// Unmatch is final: neither an undo nor a new like brings the match back.
    @Test(arguments: TestBackend.all) func unmatchIsFinal(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag)
        #expect(try store.record(viewer: "b", profile: "a", decision: .like, via: .drag).match != nil)
        try store.unmatch(viewer: "a", profile: "b")
        #expect(try store.matches(viewer: "a").isEmpty && store.matches(viewer: "b").isEmpty)
        try store.undo(viewer: "b", profile: "a")
        #expect(try store.record(viewer: "b", profile: "a", decision: .superlike, via: .drag).match == nil)
        #expect(try store.matches(viewer: "b").isEmpty)
        #expect(throws: StoreError.notMatched(viewer: "a", profile: "b")) {
            try store.unmatch(viewer: "a", profile: "b")
        }
    }

    /// A block ends a match for both, refuses decisions both ways and hides
    /// each from the other's likes and history (issue 36: a block hides both
    /// everywhere, as an erase would); the rows stay, listed again once the
    /// block is lifted.
    @Test(arguments: TestBackend.all) func aBlockEndsTheMatchAndRefusesDecisions(_ backend: TestBackend) throws {
        let store = try store(backend)
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .drag)
        _ = try store.record(viewer: "b", profile: "a", decision: .like, via: .drag)
        _ = try store.record(viewer: "c", profile: "a", decision: .like, via: .drag)
        #expect(try store.block(viewer: "b", profile: "a").endedMatch)
        #expect(try store.matches(viewer: "a").isEmpty)
        #expect(try store.history(HistoryQuery(viewer: "a")).isEmpty)
        #expect(try store.history(HistoryQuery(viewer: "b")).isEmpty)
        #expect(throws: StoreError.blocked(viewer: "a", profile: "b")) {
            try store.record(viewer: "a", profile: "b", decision: .hate, via: .drag)
        }
        try store.block(viewer: "a", profile: "c")
        #expect(try store.likes(viewer: "a").isEmpty)
        #expect(throws: StoreError.alreadyBlocked(viewer: "a", profile: "c")) {
            try store.block(viewer: "a", profile: "c")
        }
        #expect(throws: StoreError.selfAction("a", action: "block")) { try store.block(viewer: "a", profile: "a") }
        try store.unblock(viewer: "b", profile: "a")
        #expect(try store.history(HistoryQuery(viewer: "a")).map(\.profile) == ["b"], "the row stayed")
    }
}
