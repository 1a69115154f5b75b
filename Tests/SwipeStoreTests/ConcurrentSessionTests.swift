import Dispatch
import Foundation
import SwipeCore
import SwipeTestSupport
import Synchronization
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// Two sessions on one database at once, each with its own store (its own
/// SQLite or PostgreSQL connection) on its own thread, as two processes
/// would have: no
/// "database is locked", no decision lost, never two standing decisions for
/// one viewer and profile, and the loser of a race told why.
@Suite struct ConcurrentSessionTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }
    static let targets = (0..<150).map { "t\($0)" }

    /// What one session saw: the decisions it was told were recorded, and every failure.
    struct SessionLog: Sendable {
        var recorded: [String] = []
        var refusals: [StoreError] = []
        var unexpected: [String] = []
    }

    /// Runs `sessions` on their own threads at once, each with a store of its own on the test database.
    func runAtOnce(_ backend: TestBackend, _ sessions: [@Sendable (any SwipeDatabase) throws -> SessionLog])
        -> [SessionLog]
    {
        let stores = self.stores
        let logs = Mutex<[Int: SessionLog]>([:])
        DispatchQueue.concurrentPerform(iterations: sessions.count) { index in
            var log: SessionLog
            do {
                log = try sessions[index](try stores.open(backend))
            } catch {
                log = SessionLog(unexpected: ["\(error)"])
            }
            logs.withLock { $0[index] = log }
        }
        return logs.withLock { all in (0..<sessions.count).map { all[$0] ?? SessionLog() } }
    }

    /// Records `viewer` liking each of `targets`, logging refusals instead of stopping.
    static func likeAll(_ viewer: String, _ targets: [String]) -> @Sendable (any SwipeDatabase) throws -> SessionLog {
        { store in
            var log = SessionLog()
            for target in targets {
                do {
                    let recorded = try store.record(viewer: viewer, profile: target, decision: .like, via: .button)
                    log.recorded.append(recorded.profile)
                } catch let refusal as StoreError {
                    log.refusals.append(refusal)
                } catch {
                    log.unexpected.append("\(error)")
                }
            }
            return log
        }
    }

    func standing(_ store: any SwipeDatabase, viewer: String) throws -> [String] {
        try store.history(HistoryQuery(viewer: viewer)).filter { $0.undoneAt == nil }.map(\.profile)
    }

    @Test(arguments: TestBackend.all) func differentViewersAtOnceLoseNothing(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["v0", "v1"] + Self.targets)
        // Each also likes the other half-way through: the mutual like races too.
        let half = Self.targets.count / 2
        let logs = runAtOnce(
            backend,
            [
                Self.likeAll("v0", Array(Self.targets[..<half]) + ["v1"] + Self.targets[half...]),
                Self.likeAll("v1", Array(Self.targets[..<half]) + ["v0"] + Self.targets[half...]),
            ])
        for log in logs {
            #expect(log.unexpected == [])
            #expect(log.refusals == [])
            #expect(log.recorded.count == Self.targets.count + 1)
        }
        #expect(Set(try standing(store, viewer: "v0")) == Set(Self.targets + ["v1"]))
        #expect(Set(try standing(store, viewer: "v1")) == Set(Self.targets + ["v0"]))
        #expect(try store.matches(viewer: "v0").map(\.profile) == ["v1"])
        #expect(try store.matches(viewer: "v1").map(\.profile) == ["v0"])
        #expect(try store.stats().matches == 1)
    }

    @Test(arguments: TestBackend.all) func sameViewerTwiceRecordsEachDecisionOnceAndTellsTheLoser(
        _ backend: TestBackend
    ) throws {
        let store = try stores.store(backend, profiles: ["v0"] + Self.targets)
        let logs = runAtOnce(backend, [Self.likeAll("v0", Self.targets), Self.likeAll("v0", Self.targets)])
        #expect(logs.flatMap(\.unexpected) == [])
        // Every target was won by exactly one session; the other was refused.
        let won = logs.flatMap(\.recorded)
        #expect(won.count == Self.targets.count)
        #expect(Set(won) == Set(Self.targets))
        let refusals = logs.flatMap(\.refusals)
        #expect(refusals.count == Self.targets.count)
        for refusal in refusals {
            guard case let .alreadyDecided(viewer, profile, decision, decidedAt) = refusal else {
                Issue.record("unexpected refusal \(refusal)")
                continue
            }
            #expect(viewer == "v0" && decision == .like)
            #expect(refusal.description == "v0 already decided like on \(profile) at \(decidedAt)")
        }
        let stored = try standing(store, viewer: "v0")
        #expect(stored.count == Self.targets.count)
        #expect(Set(stored) == Set(Self.targets), "one standing decision per profile")
    }

    @Test(arguments: TestBackend.all) func sameViewerDecidingAndUndoingAtOnceKeepsOneStandingDecision(
        _ backend: TestBackend
    ) throws {
        let store = try stores.store(backend, profiles: ["v0"] + Self.targets)
        let undoer: @Sendable (any SwipeDatabase) throws -> SessionLog = { store in
            var log = SessionLog()
            for target in Self.targets {
                do {
                    try store.undo(viewer: "v0", profile: target)
                } catch let refusal as StoreError {
                    log.refusals.append(refusal)
                } catch {
                    log.unexpected.append("\(error)")
                }
            }
            return log
        }
        let logs = runAtOnce(backend, [Self.likeAll("v0", Self.targets), undoer, Self.likeAll("v0", Self.targets)])
        #expect(logs.flatMap(\.unexpected) == [])
        let undone = Self.targets.count - logs[1].refusals.count
        let rows = try store.history(HistoryQuery(viewer: "v0"))
        // Every recorded decision is a row; each undo stamped one of them.
        #expect(rows.count == logs[0].recorded.count + logs[2].recorded.count)
        #expect(rows.filter { $0.undoneAt != nil }.count == undone)
        let standing = rows.filter { $0.undoneAt == nil }.map(\.profile)
        #expect(Set(standing).count == standing.count, "never two standing decisions for one profile")
    }

    /// Both switch the new file to WAL at once, which SQLite refuses one of at
    /// once, busy timeout or not; `SQLiteConnection` retries it. Without the retry
    /// about 1 round in 6 failed, so 200 rounds fail it every time.
    @Test func aNewDatabaseOpenedByTwoAtOnceGetsOneSchema() throws {
        for round in 0..<200 {
            let path = folder.path + "/fresh-\(round).sqlite"
            let versions = Mutex<[Int]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    let store = try SQLiteStore(path: path)
                    let version = try store.connection.scalarInt("PRAGMA user_version") ?? -1
                    versions.withLock { $0.append(version) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(versions.withLock { $0 } == [Schema.version, Schema.version])
        }
    }

    /// A writer that outlasts the busy timeout (a long import) gets a message
    /// that says what happened and what to do, not SQLite's bare "database is locked".
    @Test func aLockHeldPastTheTimeoutIsExplained() throws {
        let store = try folder.store(profiles: ["a", "b"])
        let path = folder.path + "/test.sqlite"
        let other = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 20)
        try store.connection.execute("BEGIN IMMEDIATE")
        defer { try? store.connection.execute("ROLLBACK") }
        do {
            try other.execute("BEGIN IMMEDIATE")
            Issue.record("a second writer got the lock")
        } catch let error as SQLiteError {
            #expect(error.isBusy)
            #expect(error.description.hasPrefix("the database is busy: another swipe has held its write lock"))
            #expect(!error.description.contains("database is locked"))
        }
    }
}
