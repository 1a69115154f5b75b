import CSQLite
import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

@Suite struct FeedTests {
    let stores = TestStores()

    /// None of them acted, has a place or an interest: the ranking cannot
    /// tell them apart, so they come in the viewer's tie-hash order (README
    /// "Ranking"), never key order, and the same for a second feed.
    @Test(arguments: TestBackend.all) func stableOrderSkippingViewerDecidedAndExcluded(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["p1", "me", "p2", "p3", "p4", "p5"])
        _ = try store.record(viewer: "me", profile: "p2", decision: .hate, via: .drag)
        let feed = try store.feed(viewer: "me")
        let order = DiscoveryModel.tieOrder("me", ["p1", "p3", "p4", "p5"])
        #expect(order != ["p1", "p3", "p4", "p5"], "the hash happens to give key order: pick other ids")
        #expect(try feed.nextProfiles(limit: 3, excluding: []).map(\.id) == Array(order.prefix(3)))
        #expect(try store.feed(viewer: "me").nextProfiles(limit: 3, excluding: []).map(\.id) == Array(order.prefix(3)))
        #expect(
            try feed.nextProfiles(limit: 3, excluding: ["p1", "p3"]).map(\.id)
                == DiscoveryModel.tieOrder("me", ["p4", "p5"]))
        #expect(try feed.nextProfiles(limit: 0, excluding: []).isEmpty)
    }

    @Test(arguments: TestBackend.all) func undoBringsAProfileBackEvenBehindTheCursor(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["me", "p1", "p2", "p3"])
        for id in ["p1", "p2"] { _ = try store.record(viewer: "me", profile: id, decision: .like, via: .drag) }
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["p3"])
        // The fetch stored a cursor past p2 (me, p1, p2 are settled).
        if let sqlite = store as? SQLiteStore {  // SQLite's cursor table
            #expect(try sqlite.connection.scalarInt("SELECT after_key FROM feed_cursors") == 3)
        }
        try store.undo(viewer: "me", profile: "p1")
        #expect(
            try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == DiscoveryModel.tieOrder("me", ["p1", "p3"]))
        _ = try store.record(viewer: "me", profile: "p3", decision: .hate, via: .drag)
        _ = try store.record(viewer: "me", profile: "p1", decision: .hate, via: .drag)
        #expect(try feed.nextProfiles(limit: 4, excluding: []).isEmpty)
        // A profile imported later joins the end of the feed.
        try store.upsert(Profile(id: "p9", name: "New", age: 40))
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["p9"])
    }
}

/// Whatever can make a profile the feed passed over eligible again sends the
/// feed back for it (the cursor only ever skips what stays rejected).
@Suite struct FeedCursorTests {
    let stores = TestStores()

    func store(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.store(backend)
        try store.upsert(Profile(id: "me", name: "Me", age: 30, gender: "m", preferences: Preferences(seeking: ["f"])))
        try store.upsert(
            Profile(id: "old", name: "Old", age: 30, gender: "f", preferences: Preferences(ageMin: 40, ageMax: 50)))
        try store.upsert(Profile(id: "x", name: "X", age: 30, gender: "f"))
        return store
    }

    @Test(arguments: TestBackend.all) func theirPreferencesWidening(_ backend: TestBackend) throws {
        let store = try store(backend)
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["x"])
        _ = try store.setPreferences(viewer: "old", PreferencesChange(ages: 18...120))
        // Changing one's preferences is using the app (Documentation/PersonalData.md):
        // old has acted, x never did, so old ranks first (Documentation/Discovery.md).
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["old", "x"])
    }

    @Test(arguments: TestBackend.all) func aReimportThatUpdatesThem(_ backend: TestBackend) throws {
        let store = try store(backend)
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["x"])
        // The file sets old's age window (a file without those columns keeps it).
        let csv = stores.folder.file("p.csv", "id,name,age,gender,age_min,age_max\nold,Old,30,f,18,120\n")
        _ = try store.importProfiles(path: csv, options: ImportOptions())
        #expect(
            try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == DiscoveryModel.tieOrder("me", ["old", "x"]))
    }

    @Test(arguments: TestBackend.all) func anUnblock(_ backend: TestBackend) throws {
        let store = try store(backend)
        try store.block(viewer: "x", profile: "me")
        let feed = try store.feed(viewer: "me")
        _ = try store.setPreferences(viewer: "old", PreferencesChange(ages: 18...120))
        try store.block(viewer: "me", profile: "old")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).isEmpty)
        try store.unblock(viewer: "x", profile: "me")
        try store.unblock(viewer: "me", profile: "old")
        // old changed its preferences (an act); x never acted.
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["old", "x"])
    }

    /// Likers resume from a cursor too: ties in time keep their order, a
    /// decided liker is passed once, and an undo brings it back first.
    @Test(arguments: TestBackend.all) func likersResumeAndComeBackAfterAnUndo(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["me", "l1", "l2", "l3", "x"])
        let same = Date(timeIntervalSince1970: 1_795_000_000)
        for id in ["l2", "l1", "l3"] {
            _ = try store.record(viewer: id, profile: "me", decision: .like, via: .drag, at: same)
        }
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["l2", "l1", "l3", "x"])
        _ = try store.record(viewer: "me", profile: "l2", decision: .hate, via: .drag)
        _ = try store.record(viewer: "me", profile: "l1", decision: .hate, via: .drag)
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["l3", "x"])
        if let sqlite = store as? SQLiteStore {  // SQLite's cursor table
            #expect(try sqlite.connection.scalarInt("SELECT after_key FROM liker_cursors WHERE viewer = 1") == 2)
        }
        try store.undo(viewer: "me", profile: "l2")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["l2", "l3", "x"])
    }

    @Test(arguments: TestBackend.all) func aLikerWhoseWindowWidensComesFirst(_ backend: TestBackend) throws {
        let store = try store(backend)  // me (m, 30, seeks f), old (f, 30, wants 40-50), x (f, 30)
        // A liker with the last key: dealt first only as a liker.
        try store.upsert(Profile(id: "late", name: "Late", age: 30, gender: "f", preferences: Preferences(ageMin: 40)))
        _ = try store.record(viewer: "late", profile: "me", decision: .like, via: .drag)
        let feed = try store.feed(viewer: "me")
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["x"])
        _ = try store.setPreferences(viewer: "late", PreferencesChange(ages: 25...35))
        #expect(try feed.nextProfiles(limit: 5, excluding: []).map(\.id) == ["late", "x"])
    }
}

/// A SQLite fetch walks and moves its cursor in one write transaction, so
/// another process cannot make a passed profile eligible in between (its
/// write, which lowers the cursors, comes wholly before or after).
@Suite struct FeedWriteLockTests {
    @Test func aFetchTakesTheWriteLockForItsWalkAndItsCursor() throws {
        let folder = TemporaryFolder()
        // p1 comes first and qualifies: this fetch has no cursor to move, so
        // only a fetch inside a write transaction meets the other writer.
        let store = try folder.store(profiles: ["p1", "me", "p2"])
        let other = try SQLiteConnection(path: store.connection.path)
        try other.execute("BEGIN IMMEDIATE")
        sqlite3_busy_timeout(store.connection.handle, 0)
        let feed = try store.feed(viewer: "me")
        #expect(throws: SQLiteError.self, "a fetch while another connection writes") {
            try feed.nextProfiles(limit: 1, excluding: [])
        }
        try other.execute("ROLLBACK")
        #expect(
            try feed.nextProfiles(limit: 1, excluding: []).map(\.id) == [
                DiscoveryModel.tieOrder("me", ["p1", "p2"])[0]
            ])
        #expect(!store.connection.isInTransaction)
    }
}
