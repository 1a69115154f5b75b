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
/// the connection's busy timeout. Who leads and who waits is `GroupCommit`;
/// each waiting thread sleeps on its own semaphore and is woken only to
/// lead the next batch or to return, never to find that someone else leads.
///
/// On PostgreSQL writers run side by side, each on a borrowed connection:
/// the store's transactions and row locks decide.
final class WriteQueue: @unchecked Sendable {
    /// At most this many writes in one transaction, so the first of a
    /// burst does not wait for the whole burst.
    static let batchLimit = 32

    private let pool: DatabasePool
    private let grouped: Bool
    /// Guards `machine`, `committed` and each queued job's `turn`.
    private let lock = NSLock()
    private var machine = GroupCommit<Job>(limit: batchLimit)
    private var committed = 0

    /// How many batches have been committed (or tried): fewer than writes when they group.
    var batches: Int { lock.withLock { committed } }
    /// How many writes are queued behind the batch being committed (tests).
    var waitingCount: Int { lock.withLock { machine.waitingCount } }

    private final class Job {
        let work: (any SwipeDatabase) throws -> Void
        /// Signalled once, when `turn` is set.
        let wake = DispatchSemaphore(value: 0)
        /// What the woken thread does: commit a batch, or return.
        var turn: Turn?

        enum Turn {
            case lead([Job])
            case done((any Error)?)
        }

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
        var batch: [Job]? = lock.withLock {
            switch machine.arrive(job) {
            case .commit(let batch): return batch
            case .wait: return nil
            }
        }
        while true {
            if let leading = batch {
                batch = nil
                lead(leading)
            }
            // A job's turn comes once: `lead` above may already have set it.
            if lock.withLock({ job.turn }) == nil { job.wake.wait() }
            switch lock.withLock({ job.turn }) {
            case .lead(let next)?:
                lock.withLock { job.turn = nil }
                batch = next
            case .done(let error)?:
                if let error { throw error }
                return result!
            case nil:
                preconditionFailure("woken with no turn")
            }
        }
    }

    /// Commits `batch` on this thread, then gives every job of it its outcome
    /// and the next batch, if any, to the thread of its first job.
    private func lead(_ batch: [Job]) {
        let errors = commit(batch)
        var woken: [Job] = []
        lock.withLock {
            committed += 1
            for (job, error) in zip(batch, errors) {
                job.turn = .done(error)
                woken.append(job)
            }
            if case .handOver(let next) = machine.committed() {
                next[0].turn = .lead(next)
                woken.append(next[0])
            }
        }
        for job in woken { job.wake.signal() }
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
