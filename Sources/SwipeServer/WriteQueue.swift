import Foundation
import SwipeStore

/// How the writes of this serve process's sessions reach the database.
///
/// On SQLite (`grouped`) a file has one writer: the writes queue here, and
/// the thread at the head of the queue commits every write waiting behind
/// it in one transaction (group commit, `SwipeDatabase.writeBatch`), each
/// in its own savepoint: each is refused alone, and each caller returns
/// only once the commit that holds its write is done. So 200 likes arriving
/// in the same millisecond cost a few commits, not 200, and never meet
/// SQLITE_BUSY (whose busy handler sleeps). Other processes are covered by
/// the connection's busy timeout.
///
/// On PostgreSQL writers run side by side, each on a borrowed connection:
/// the store's transactions and row locks decide.
final class WriteQueue: @unchecked Sendable {
    /// At most this many writes in one transaction, so the first of a
    /// burst does not wait for the whole burst.
    static let batchLimit = 32

    private let pool: DatabasePool
    private let grouped: Bool
    /// Guards `waiting` and `leading`; broadcast when a batch is done.
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var leading = false
    private var committed = 0

    /// How many batches have been committed (or tried): fewer than writes when they group.
    var batches: Int { condition.withLock { committed } }
    /// How many writes are queued behind the batch being committed (tests).
    var waitingCount: Int { condition.withLock { waiting.count } }

    private final class Job {
        let work: (any SwipeDatabase) throws -> Void
        var done = false
        var error: (any Error)?

        init(_ work: @escaping (any SwipeDatabase) throws -> Void) { self.work = work }
    }

    init(pool: DatabasePool, grouped: Bool) {
        self.pool = pool
        self.grouped = grouped
    }

    /// Runs `body`, which may write, and returns once it is durable.
    func write<T>(_ body: @escaping (any SwipeDatabase) throws -> T) throws -> T {
        guard grouped else { return try pool.withDatabase(body) }
        var result: T?
        let job = Job { database in result = try body(database) }
        condition.lock()
        waiting.append(job)
        while !job.done {
            if leading {
                condition.wait()
                continue
            }
            // Nobody is committing: this thread commits the queue's head, its own write included.
            leading = true
            let batch = Array(waiting.prefix(Self.batchLimit))
            waiting.removeFirst(batch.count)
            condition.unlock()
            let errors = commit(batch)
            condition.lock()
            for (job, error) in zip(batch, errors) {
                job.error = error
                job.done = true
            }
            leading = false
            committed += 1
            condition.broadcast()
        }
        condition.unlock()
        if let error = job.error { throw error }
        return result!
    }

    /// Each job's error (nil: stored); a failed commit is every job's error.
    private func commit(_ batch: [Job]) -> [(any Error)?] {
        do {
            return try pool.withDatabase { database in
                try database.writeBatch(batch.map { job in { try job.work(database) } })
            }
        } catch {
            return batch.map { _ in error }
        }
    }
}
