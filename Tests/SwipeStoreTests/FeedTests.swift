import Foundation
import SwipeCore
import SwipeTestSupport
import Testing
@testable import SwipeStore

@Suite struct FeedTests {
    let folder = TemporaryFolder()

    @Test func stableOrderSkippingViewerDecidedAndExcluded() throws {
        let store = try folder.store(profiles: ["p1", "me", "p2", "p3", "p4", "p5"])
        _ = try store.record(viewer: "me", profile: "p2", decision: .hate, via: .drag)
        let feed = try SQLiteFeed(store: store, viewer: "me")
        #expect(try feed.nextProfiles(limit: 3, excluding: []).map(\.id) == ["p1", "p3", "p4"])
        #expect(try feed.nextProfiles(limit: 3, excluding: ["p1", "p3"]).map(\.id) == ["p4", "p5"])
        #expect(try feed.nextProfiles(limit: 0, excluding: []).isEmpty)
    }

    @Test func undoBringsAProfileBackEvenBehindTheCursor() throws {
        let store = try folder.store(profiles: ["me", "p1", "p2", "p3"])
        for id in ["p1", "p2"] { _ = try store.record(viewer: "me", profile: id, decision: .like, via: .drag) }
        let feed = try SQLiteFeed(store: store, viewer: "me")
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["p3"])
        // The fetch stored a cursor past p2 (me, p1, p2 are settled).
        #expect(try store.connection.scalarInt("SELECT after_key FROM feed_cursors") == 3)
        try store.undo(viewer: "me", profile: "p1")
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["p1", "p3"])
        _ = try store.record(viewer: "me", profile: "p3", decision: .hate, via: .drag)
        _ = try store.record(viewer: "me", profile: "p1", decision: .hate, via: .drag)
        #expect(try feed.nextProfiles(limit: 4, excluding: []).isEmpty)
        // A profile imported later joins the end of the feed.
        try store.upsert(Profile(id: "p9", name: "New", age: 40))
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["p9"])
    }

    @Test func feedQueryIsAnIndexSearch() throws {
        let store = try folder.store()
        try store.connection.writeTransaction {
            for n in 0..<2000 { try store.upsert(Profile(id: "p\(n)", name: "P", age: 30)) }
            let decide = try store.connection.statement(
                "INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (1, ?1, 'hate', 'drag', '2026-11-20T00:00:00.000Z')")
            for key in 2..<1000 { try decide.bind(.int(key)).run() }
        }
        try store.connection.execute("ANALYZE")
        let plan = try store.connection.statement("EXPLAIN QUERY PLAN " + SQLiteFeed.nextSQL)
            .bind(.int(0), .int(1), .int(4)).map { $0.text(3) }
        let text = plan.joined(separator: "\n")
        #expect(!text.contains("SCAN"), "plan: \(text)")
        #expect(!text.contains("TEMP B-TREE"), "plan: \(text)")
        #expect(text.contains("SEARCH p USING INTEGER PRIMARY KEY"), "plan: \(text)")
        // Each candidate is one probe of a standing-decision index on (viewer, profile).
        #expect(text.contains("SEARCH d USING"), "plan: \(text)")
    }
}
