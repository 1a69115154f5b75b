import Foundation
import SwipeCLI
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport

/// Viewer `v`'s scope over a temporary SQLite store: the store the REPL
/// runs on, not a stand-in for it. Decision n of the scope is stamped
/// 2026-11-20T23:55:0n.000Z (its clock ticks a second per decision or
/// undo); `likedBy` are the profiles that already like the viewer, so that
/// liking one of them makes a match; `failNextWrite` makes the next write
/// fail as a lost disk would, before anything is stored.
final class TestLedger: DatabaseAccess, @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk I/O error (fake)" }
    }

    let folder = TemporaryFolder("swipe-repl-fixture")
    let store: SQLiteStore
    let likedBy: Set<String>
    var failNextWrite = false
    private var ticks = 0

    init(likedBy: Set<String> = []) {
        self.likedBy = likedBy
        store = try! SQLiteStore(path: folder.path + "/repl.sqlite")
        try! store.upsert(Profile(id: "v", name: "Viewer", age: 30))
    }

    /// Puts `profiles` in the store (the deck's cards must be profiles to be
    /// decided) and the likes of `likedBy` about the viewer.
    func hold(_ profiles: [Profile]) throws {
        for profile in profiles { try store.upsert(profile) }
        for id in likedBy.sorted() { _ = try store.record(viewer: id, profile: "v", decision: .like, via: .import) }
    }

    /// The scope a session is given.
    var scope: ViewerScope {
        var scope = ViewerScope(viewer: "v", access: self)
        scope.clock = { [self] in
            ticks += 1
            return Date(timeIntervalSince1970: 1_795_218_900 + Double(ticks))
        }
        return scope
    }

    /// The viewer's decisions as stored, newest first.
    var entries: [HistoryEntry] {
        (try? ViewerScope(viewer: "v", access: DirectAccess(store)).history(about: nil)) ?? []
    }

    func read<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T { try body(store) }

    func write<T>(_ body: @escaping (any SwipeDatabase) throws -> T) throws -> T {
        if failNextWrite {
            failNextWrite = false
            throw Failure()
        }
        return try body(store)
    }
}

enum Fixture {
    static let profiles = [
        Profile(
            id: "m-1", name: "Mia", age: 27, gender: "f", city: "Lisbon",
            bio: "Climber.\nBaker of sourdough.", photos: ["https://example.com/m1.jpg"],
            interests: ["climbing", "bread"]),
        Profile(id: "w-2", name: "Wen", age: 31, city: "Taipei", interests: ["go"]),
        Profile(id: "k-3", name: "Kai", age: 24),
        Profile(id: "l-4", name: "Lou", age: 45),
        Profile(id: "z-5", name: "Zoé", age: 38, city: "Lyon"),
    ]

    static func session(_ format: ReplFormat = .json, profiles: [Profile] = profiles, ledger: TestLedger = TestLedger())
        throws -> ReplSession
    {
        try ledger.hold(profiles)
        return try ReplSession(feed: InMemoryFeed(profiles), ledger: ledger.scope, format: format)
    }
}

extension ReplSession {
    /// Runs `line` and returns what it printed.
    mutating func answer(_ line: String) -> String {
        var out = ""
        run(line, into: &out)
        return out
    }
}

extension HistoryEntry {
    /// The profile decided, by the name these tests knew it by.
    var profileID: String { profile }
}
