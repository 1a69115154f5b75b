import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// A tampered database is not believed. A decision is
/// acknowledged only when its row is stored; a stored value swipe never
/// writes is an error naming the row.
@Suite struct TamperedRowTests {
    let folder = TemporaryFolder("swipe-trust-ledger")

    @Test func aTriggerThatDeletesEachNewDecisionMakesRecordFail() throws {
        let store = try folder.store(profiles: ["v", "a"])
        try store.connection.execute(
            """
            CREATE TRIGGER eat AFTER INSERT ON decisions BEGIN DELETE FROM decisions WHERE key = new.key; END
            """)
        let error = try #require(throws: StoreError.self) {
            try store.record(viewer: "v", profile: "a", decision: .like, via: .button)
        }
        guard case .notStored(table: "decisions", let what) = error else {
            Issue.record("expected notStored, got \(error)")
            return
        }
        #expect(what.hasPrefix("v's like of a at "))
        #expect(try store.connection.scalarInt("SELECT count(*) FROM decisions") == 0)
        #expect(!store.connection.isInTransaction)
    }

    @Test func aTriggerThatIgnoresTheInsertMakesRecordFail() throws {
        let store = try folder.store(profiles: ["v", "a", "b"])
        // An older row, so last_insert_rowid points at a real row when the insert is ignored.
        _ = try store.record(viewer: "v", profile: "b", decision: .hate, via: .drag)
        try store.connection.execute(
            """
            CREATE TRIGGER skip BEFORE INSERT ON decisions BEGIN SELECT RAISE(IGNORE); END
            """)
        #expect(throws: StoreError.self) { try store.record(viewer: "v", profile: "a", decision: .like, via: .button) }
        #expect(try store.connection.scalarInt("SELECT count(*) FROM decisions") == 1)
    }

    /// Rows another program wrote past the CHECKs.
    func tampered(decision: String, via: String) throws -> (SQLiteStore, key: Int) {
        let store = try folder.store(profiles: ["v", "a"])
        try store.connection.execute("PRAGMA ignore_check_constraints = ON")
        try store.connection.statement(
            """
            INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (1, 2, ?1, ?2, '2026-11-20T10:00:00.000Z')
            """
        ).bind(.text(decision), .text(via)).run()
        try store.connection.execute("PRAGMA ignore_check_constraints = OFF")
        return (store, store.connection.lastInsertRowID)
    }

    @Test func aDecisionSwipeNeverWritesIsAnErrorNamingTheRow() throws {
        let (store, key) = try tampered(decision: "meh", via: "button")
        let expected = StoreError.undecodable(table: "decisions", key: key, column: "decision", value: "meh")
        #expect(throws: expected) { try store.history(HistoryQuery(viewer: "v")) }
        #expect(throws: expected) { try store.record(viewer: "v", profile: "a", decision: .like, via: .button) }
        #expect(expected.description.hasPrefix("decisions row \(key) holds decision \"meh\""))
    }

    @Test func aViaSwipeNeverWritesIsAnErrorNamingTheRow() throws {
        let (store, key) = try tampered(decision: "like", via: "telepathy")
        let expected = StoreError.undecodable(table: "decisions", key: key, column: "via", value: "telepathy")
        #expect(throws: expected) { try store.history(HistoryQuery(viewer: "v")) }
        #expect(throws: expected) { try store.undo(viewer: "v", profile: "a") }
    }
}
