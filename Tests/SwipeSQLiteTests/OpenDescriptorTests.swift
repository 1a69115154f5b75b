import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// A second `SQLiteStore` opened on a database this process already has open must
/// not drop the first connection's POSIX locks (closing any descriptor of
/// the file would: sqlite.org/howtocorrupt.html §2.2). If it did, another
/// process reading and closing the file would believe it was the last one,
/// checkpoint and delete the WAL under the first connection, whose next
/// statement then finds the database "malformed" or short-read.
@Suite struct OpenDescriptorTests {
    let folder = TemporaryFolder()

    @Test func aSecondStoreKeepsTheFirstOnesLocks() throws {
        let targets = (0..<6).map { "t\($0)" }
        let first = try folder.store(profiles: ["v"] + targets)
        let path = first.connection.path
        #expect(OpenDatabaseFiles.isOpen(path))
        _ = try first.record(viewer: "v", profile: "t0", decision: .like, via: .button)
        for (index, target) in targets.dropFirst().enumerated() {
            let second = try SQLiteStore(path: path)
            _ = try second.profileKey(id: target)
            // Another process reads and closes; it must see it is not alone,
            // so the WAL with the first connection's commits stays.
            #expect(try sqlite3Elsewhere(path, "SELECT count(*) FROM decisions") == "\(index + 1)")
            _ = try first.record(viewer: "v", profile: target, decision: .like, via: .button)
        }
        #expect(try sqlite3Elsewhere(path, "PRAGMA integrity_check") == "ok")
        #expect(try first.connection.scalarInt("SELECT count(*) FROM decisions") == targets.count)
    }

    @Test func aClosedStoreLeavesItsFileUncounted() throws {
        let path = try folder.store(profiles: ["v"]).connection.path
        #expect(!OpenDatabaseFiles.isOpen(path))
        do {
            let again = try SQLiteStore(path: path, create: false, readOnly: true)
            #expect(OpenDatabaseFiles.isOpen(again.connection.path))
        }
        #expect(!OpenDatabaseFiles.isOpen(path))
    }
}
