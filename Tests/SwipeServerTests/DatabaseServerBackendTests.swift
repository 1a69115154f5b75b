import Foundation
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Synchronization
import Testing

@testable import SwipeServer

/// The backend over a SQLite file: many sessions in one process sharing a
/// few connections, other processes beside it.
struct DatabaseServerBackendTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    func sqlite3(_ sql: String) throws -> String { try sqlite3Elsewhere(fixture.path, sql) }

    func backend(connections: Int = 8) throws -> DatabaseServerBackend {
        let path = fixture.path
        return try DatabaseServerBackend(writes: .oneAtATime, connections: connections) {
            try SQLiteStore(path: path, create: false)
        }
    }

    /// Opening a connection must not drop the POSIX locks the others hold (a
    /// descriptor of the file closed behind SQLite's back does): another
    /// process's last close would then checkpoint and remove the WAL under
    /// them, and their next read finds the database "malformed". The
    /// browser test of a match between two viewers met it.
    @Test func openingSessionsKeepsTheOthersSafeFromAnotherProcess() throws {
        let backend = try backend()
        let alice = try backend.openSession(viewer: "alice") { _ in }
        #expect(alice.run("like").hasPrefix("{\"ok\":true"))
        for viewer in ["bob", "carol", "dave"] {
            let other = try backend.openSession(viewer: viewer) { _ in }
            #expect(other.run("like").hasPrefix("{\"ok\":true"))
            // Another process reads and closes: it must see it is not alone.
            #expect(try sqlite3("SELECT count(*) FROM decisions") != "")
            let answer = alice.run("like")
            #expect(answer.hasPrefix("{\"ok\":true"), "\(answer)")
        }
        #expect(try sqlite3("PRAGMA integrity_check") == "ok")
        #expect(try sqlite3("SELECT count(*) FROM decisions") == "7")
    }

    /// What runs on an event loop (`SocketSession.runsInline`): a drag, and a
    /// release that springs back, as the deck works it out (a like the deck
    /// refuses mid-gesture too); never a release that decides, a like or an
    /// undo, which go to the store's threads.
    @Test func aReleaseThatSpringsBackRunsInline() throws {
        let session = try backend().openSession(viewer: "alice") { _ in }
        #expect(session.runsInline(ReplLine("drag 20 0")))
        _ = session.run("drag 20 0")
        #expect(session.runsInline(ReplLine("release 0 0")))
        let before = try sqlite3("SELECT count(*) FROM decisions")
        #expect(session.run("release 0 0").hasPrefix("{\"ok\":true"))
        #expect(try sqlite3("SELECT count(*) FROM decisions") == before)
        _ = session.run("drag 400 0")
        #expect(!session.runsInline(ReplLine("release 0 0")))
        // Mid-gesture the deck refuses a like: that refusal asks nothing of the store.
        #expect(session.runsInline(ReplLine("like")))
        #expect(session.run("release 0 0").hasPrefix("{\"ok\":true"))
        #expect(try sqlite3("SELECT count(*) FROM decisions") != before)
        #expect(!session.runsInline(ReplLine("like")))
        #expect(!session.runsInline(ReplLine("undo")))
    }

    /// Sessions hold no connection: 40 sessions at once share
    /// at most 3 connections, every like is stored once, and the matches
    /// are those the ledger makes (each pair liked both ways, once).
    @Test func manySessionsShareAFewConnections() async throws {
        let viewers = (0..<40).map { "v\($0)" }
        let store = try SQLiteStore(path: fixture.path, create: false)
        for id in viewers { try store.upsert(Profile(id: id, name: id, age: 30)) }
        try await Self.everyoneLikesEveryone(
            try backend(connections: 3), connections: 3, store: store,
            viewers: viewers, others: 5)
        #expect(try sqlite3("SELECT count(*) FROM decisions WHERE undone_at IS NULL") == "\(40 * 44)")
        #expect(try sqlite3("SELECT count(*) FROM matches") == "\(40 * 39 / 2)")
    }

    /// Each of `viewers`' sessions, all at once, likes its whole deck (the
    /// other viewers and `others` more profiles); then every like is stored
    /// once and every pair of viewers matched once, read through `store`.
    static func everyoneLikesEveryone(
        _ backend: DatabaseServerBackend, connections: Int, store: any SwipeDatabase,
        viewers: [String], others: Int
    ) async throws {
        let sessions = try viewers.map { try backend.openSession(viewer: $0) { _ in } }
        let deck = viewers.count - 1 + others
        let all = await withTaskGroup(of: [String].self) { group in
            for session in sessions {
                group.addTask { (0..<deck).map { _ in session.run("like") } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(backend.openConnections <= connections)
        let failed = all.filter { !$0.hasPrefix("{\"ok\":true") }
        #expect(failed.isEmpty, "\(failed.prefix(3))")
        for viewer in viewers {
            let history = try store.history(HistoryQuery(viewer: viewer, profile: nil))
            #expect(history.count == deck && Set(history.map(\.profile)).count == deck, "\(viewer)")
            #expect(
                Set(try store.matches(viewer: viewer).map(\.profile)) == Set(viewers).subtracting([viewer]),
                "\(viewer)")
        }
    }

    /// A pool whose database cannot be opened fails at start, naming it.
    @Test func aMissingDatabaseFailsAtStart() throws {
        let missing = fixture.folder.path + "/none.sqlite"
        #expect(throws: DatabaseOpenError.self) {
            _ = try DatabaseServerBackend(writes: .oneAtATime) { try SQLiteStore(path: missing, create: false) }
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

/// Group commit on SQLite: writes that arrive together share a commit, and
/// each is still refused or stored on its own.
struct WriteQueueTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func writesArrivingTogetherShareCommitsAndAreRefusedAlone() throws {
        let viewers = (0..<48).map { "w\($0)" }
        let store = try SQLiteStore(path: fixture.path, create: false)
        for id in viewers { try store.upsert(Profile(id: id, name: id, age: 30)) }
        let path = fixture.path
        let pool = DatabasePool(capacity: 4) { try SQLiteStore(path: path, create: false) }
        let queue = WriteQueue(pool: pool, grouped: true)
        // The first write holds the database until the 47 others are queued
        // behind it (no timing involved): they must then commit in
        // ceil(47 / batchLimit) = 2 more batches, not 47. The even ones like
        // the next viewer, the odd ones like themselves (refused:
        // selfDecision) in the same batches.
        let outcomes = Mutex<[Int: String]>([:])
        let firstInside = DispatchSemaphore(value: 0), finished = DispatchGroup()
        func run(_ index: Int) {
            finished.enter()
            Thread {
                let viewer = viewers[index]
                let target = index.isMultiple(of: 2) ? viewers[index + 1] : viewer
                let outcome: String
                do {
                    outcome = try queue.write { database in
                        if index == 0 {
                            firstInside.signal()
                            let deadline = ContinuousClock.now + .seconds(120)
                            while queue.waitingCount < viewers.count - 1 && ContinuousClock.now < deadline {
                                Thread.sleep(forTimeInterval: 0.001)
                            }
                        }
                        return try database.record(viewer: viewer, profile: target, decision: .like, via: .button)
                            .profile
                    }
                } catch StoreError.selfDecision {
                    outcome = "refused"
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0[index] = outcome }
                finished.leave()
            }.start()
        }
        run(0)
        firstInside.wait()
        for index in viewers.indices.dropFirst() { run(index) }
        finished.wait()
        let all = outcomes.withLock { $0 }
        for index in viewers.indices {
            #expect(all[index] == (index.isMultiple(of: 2) ? viewers[index + 1] : "refused"), "\(index)")
        }
        #expect(queue.batches == 3, "writes waiting together commit together: 1 + 32 + 15")
        #expect(try sqlite3Elsewhere(path, "SELECT count(*) FROM decisions") == "24")
        #expect(
            try sqlite3Elsewhere(
                path,
                "SELECT count(*) FROM decisions d JOIN profiles v ON v.key = d.viewer "
                    + "JOIN profiles p ON p.key = d.profile WHERE v.id = p.id") == "0")
    }
}
