import Foundation
import SwipeCore
@_spi(Testing) import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A lost connection fails the call that found it and the next call
/// reconnects; a decision whose COMMIT lost its answer is looked up by
/// transaction id, so it is stored exactly once whichever way COMMIT went.
@Suite(.needsPostgres) struct PostgresStoreFaultTests {
    let database: PostgresTestDatabase
    let store: PostgresStore

    init() throws {
        database = try PostgresTestDatabase()
        store = try PostgresStore(uri: database.uri, create: true)
        for id in ["a", "b"] { try store.upsert(Profile(id: id, name: id.uppercased(), age: 30)) }
    }

    /// Ends the server process of `victim` from another session, waiting until it is gone.
    func terminate(_ pid: Int32) throws {
        let killer = try database.connect()
        #expect(try killer.query("SELECT pg_terminate_backend($1, 60000)", .integer(Int64(pid)))[0].bool(0))
    }

    func decisionsStored() throws -> Int {
        try database.connect().scalarInt("SELECT count(*) FROM decisions") ?? -1
    }

    @Test func aLostConnectionFailsOneCallAndTheNextReconnects() throws {
        let before = store.connection.backendPID
        try terminate(before)
        let error = #expect(throws: PostgresError.self) { try store.stats() }
        #expect(error?.kind == .connectionLost)
        #expect(error.map { "\($0)" }?.contains("the connection to PostgreSQL was lost") == true)
        // The next call opens a new session, once, and works.
        #expect(try store.stats().profiles == 2)
        #expect(store.connection.backendPID != before)
        #expect(try store.connection.scalarText("SHOW synchronous_commit") == "on", "session settings again")
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .button)
        #expect(try decisionsStored() == 1)
    }

    @Test func aConnectionLostInsideAWriteStoresNothingAndSaysSo() throws {
        store.commitStep = { [database] connection in
            // Lost before COMMIT was sent: this transaction cannot have committed.
            let killer = try database.connect()
            _ = try killer.query("SELECT pg_terminate_backend($1, 60000)", .integer(Int64(connection.backendPID)))
            try connection.execute("SELECT 1")
        }
        let error = #expect(throws: PostgresError.self) {
            try store.record(viewer: "a", profile: "b", decision: .like, via: .button)
        }
        #expect(error?.kind == .connectionLost)
        store.commitStep = nil
        #expect(try decisionsStored() == 0)
        // And the next call reconnects and records it.
        #expect(try store.record(viewer: "a", profile: "b", decision: .like, via: .button).decision == .like)
        #expect(try decisionsStored() == 1)
    }

    @Test func aCommitThatTookEffectBeforeTheConnectionDiedIsNotDoubled() throws {
        var commits = 0
        store.commitStep = { connection in
            commits += 1
            try connection.execute("COMMIT")
            // The answer is lost after the server committed.
            try connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        }
        let recorded = try store.record(viewer: "a", profile: "b", decision: .like, via: .button)
        store.commitStep = nil
        #expect(recorded.decision == .like && recorded.viewer == "a" && recorded.profile == "b")
        #expect(commits == 1, "looked up, not run again")
        #expect(try decisionsStored() == 1)
        #expect(try store.history(HistoryQuery(viewer: "a")).map(\.profile) == ["b"])
    }

    @Test func aCommitLostBeforeItTookEffectRunsAgainOnce() throws {
        var commits = 0
        store.commitStep = { [database] connection in
            commits += 1
            if commits == 1 {
                let killer = try database.connect()
                _ = try killer.query("SELECT pg_terminate_backend($1, 60000)", .integer(Int64(connection.backendPID)))
            }
            try connection.execute("COMMIT")
        }
        let recorded = try store.record(viewer: "a", profile: "b", decision: .like, via: .button)
        store.commitStep = nil
        #expect(recorded.decision == .like)
        #expect(commits == 2, "aborted, looked up, then run again on the new session")
        #expect(try decisionsStored() == 1)
    }
}
