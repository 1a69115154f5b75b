import Foundation
import SwipeStore

/// A few open databases shared by every session of `swipe serve`: a store
/// call borrows one, uses it on its thread and gives it back. On PostgreSQL
/// each is a server connection, so a session holds none while its viewer
/// thinks; on SQLite each is a connection to the file.
///
/// At most `capacity` are opened, lazily; a borrower finding none free
/// waits for one. A database goes back to the pool whatever its call
/// threw: a refusal leaves it as it was, and a store whose connection broke
/// reconnects on its next call (`PostgresStore` does, once).
final class DatabasePool: @unchecked Sendable {
    let capacity: Int
    private let open: @Sendable () throws -> any SwipeDatabase
    /// Guards `idle` and `opened`; signalled when either changes.
    private let condition = NSCondition()
    private var idle: [any SwipeDatabase] = []
    private var opened = 0

    init(capacity: Int, open: @escaping @Sendable () throws -> any SwipeDatabase) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.open = open
    }

    /// How many databases are open right now (idle or borrowed).
    var openCount: Int { condition.withLock { opened } }

    /// Runs `body` with a borrowed database, on the calling thread.
    /// Opens a connection of its own, runs `body` on it and drops it: what a
    /// health check needs (a pooled connection could outlive the database
    /// file it was opened on, or a server that no longer takes new ones).
    func withFreshDatabase<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T {
        try body(try open())
    }

    func withDatabase<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T {
        let database = try borrow()
        defer { giveBack(database) }
        return try body(database)
    }

    private func borrow() throws -> any SwipeDatabase {
        condition.lock()
        while idle.isEmpty && opened >= capacity { condition.wait() }
        if let database = idle.popLast() {
            condition.unlock()
            return database
        }
        opened += 1
        condition.unlock()
        do {
            return try open()
        } catch {
            discard()
            throw error
        }
    }

    private func giveBack(_ database: any SwipeDatabase) {
        condition.withLock {
            idle.append(database)
            condition.signal()
        }
    }

    private func discard() {
        condition.withLock {
            opened -= 1
            condition.signal()
        }
    }
}
