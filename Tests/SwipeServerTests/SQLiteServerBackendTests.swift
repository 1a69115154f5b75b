import Foundation
import SwipeTestSupport
import Testing
@testable import SwipeServer

/// The SQLite backend: many sessions in one process, other processes beside it.
struct SQLiteServerBackendTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    func sqlite3(_ sql: String) throws -> String { try sqlite3Elsewhere(fixture.path, sql) }

    /// Opening a session must not drop the POSIX locks the other sessions'
    /// connections hold (a descriptor of the file closed behind SQLite's
    /// back does): another process's last close would then checkpoint and
    /// remove the WAL under them, and their next read finds the database
    /// "malformed". The browser test of a match between two viewers met it.
    @Test func openingASessionKeepsTheOthersSafeFromAnotherProcess() throws {
        let backend = try SQLiteServerBackend(path: fixture.path)
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
}
