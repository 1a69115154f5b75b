/// Who commits what, and who waits, when writes queue for one writer
/// (`WriteQueue` on SQLite): the decisions only, with no threads, locks or
/// database, so they are tested on their own.
///
/// One batch is committed at a time, by a thread whose own write is in it
/// (the leader). Writes arriving meanwhile wait in order. When a batch is
/// done, the next (the oldest `limit` waiting writes) is handed to the
/// thread of its first write, which alone is woken to commit it: no thread
/// races for the lead, and nobody else is woken but the writers whose
/// commit is done.
struct GroupCommit<Write> {
    private enum State {
        /// No batch is being committed and nobody waits.
        case idle
        /// A batch is being committed; `waiting` arrived since, oldest first.
        case committing(waiting: [Write])
    }

    /// At most this many writes in one batch, so the first of a burst does
    /// not wait for the whole burst.
    let limit: Int
    private var state = State.idle

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    enum ArrivalAction {
        /// Commit this batch (the arriving write alone) on the arriving thread now.
        case commit([Write])
        /// Wait: a later `committed()` hands this write's thread a batch to commit, or its outcome.
        case wait
    }

    /// A write arrives.
    mutating func arrive(_ write: Write) -> ArrivalAction {
        switch state {
        case .idle:
            state = .committing(waiting: [])
            return .commit([write])
        case .committing(var waiting):
            waiting.append(write)
            state = .committing(waiting: waiting)
            return .wait
        }
    }

    enum CommitAction {
        /// Nobody waits: the queue is idle again.
        case rest
        /// Wake the thread of the batch's first write to commit the batch.
        case handOver([Write])
    }

    /// The batch being committed is done (stored or refused).
    mutating func committed() -> CommitAction {
        guard case .committing(var waiting) = state else {
            preconditionFailure("committed() with no batch being committed")
        }
        guard !waiting.isEmpty else {
            state = .idle
            return .rest
        }
        let batch = Array(waiting.prefix(limit))
        waiting.removeFirst(batch.count)
        state = .committing(waiting: waiting)
        return .handOver(batch)
    }

    /// How many writes wait behind the batch being committed.
    var waitingCount: Int {
        if case .committing(let waiting) = state { return waiting.count }
        return 0
    }
}

extension GroupCommit.ArrivalAction: Equatable where Write: Equatable {}
extension GroupCommit.CommitAction: Equatable where Write: Equatable {}
