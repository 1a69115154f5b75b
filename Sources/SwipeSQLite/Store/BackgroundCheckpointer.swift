import CSQLite
import Foundation

/// Checkpoints a WAL database on a thread of its own, so that no commit
/// pays for one.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL
/// past 1000 pages, fsyncs included. For one person at a REPL that is
/// invisible; for `swipe serve`, whose writes queue behind one committing
/// thread (group commit), every write queued behind that commit waits for
/// the checkpoint too. `attach` replaces the automatic checkpoint of a
/// connection with a signal to this object's thread, which runs a PASSIVE
/// checkpoint (it never waits for readers or writers) on a connection of
/// its own. Should the thread fall behind (`inlineLimit` pages), the
/// committing connection checkpoints itself as SQLite would have, so the
/// WAL never grows without bound.
///
/// Attached connections must be closed before this object is released:
/// their hook points at it, unretained.
public final class BackgroundCheckpointer: @unchecked Sendable {
    /// The WAL size, in pages, that asks for a checkpoint (SQLite's own default).
    public let pages: Int
    /// The WAL size at which the committing connection checkpoints itself.
    public let inlineLimit: Int
    private let connection: SQLiteConnection
    /// Guards the state below; signalled when a checkpoint is wanted or the thread should stop.
    private let condition = NSCondition()
    private var wanted = false
    private var stopping = false
    private var running = false
    private var completed = 0
    private var largestWAL = 0
    private var lastWAL = 0

    /// Opens the checkpointing connection to the database at `path` (which must exist).
    /// With `start` false the thread starts only at `start()` (tests).
    public init(path: String, pages: Int = 1000, inlineLimit: Int = 10_000, start: Bool = true) throws {
        precondition(pages > 0 && inlineLimit >= pages)
        self.pages = pages
        self.inlineLimit = inlineLimit
        connection = try SQLiteConnection(path: path, create: false, configure: false)
        // A connection learns that the file is in WAL mode when it first
        // reads; until then a checkpoint on it does nothing.
        _ = try connection.scalarInt("SELECT count(*) FROM sqlite_schema")
        if start { self.start() }
    }

    /// How many checkpoints the thread has run.
    public var checkpoints: Int { condition.withLock { completed } }
    /// The most pages an attached connection's WAL held after a commit.
    public var largestWALPages: Int { condition.withLock { largestWAL } }
    /// The pages the WAL held after the latest commit (it starts over after a complete checkpoint).
    public var lastWALPages: Int { condition.withLock { lastWAL } }

    /// Waits until the thread has run `count` checkpoints, or `timeout` passes; whether it has.
    public func waitForCheckpoints(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while completed < count {
                if !condition.wait(until: deadline) { return completed >= count }
            }
            return true
        }
    }

    /// From now on `connection` signals this object when its WAL is due for a
    /// checkpoint, instead of checkpointing in its own commits.
    public func attach(_ attached: SQLiteConnection) {
        sqlite3_wal_hook(
            attached.handle,
            { context, database, name, walPages in
                guard let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
                if Int(walPages) >= checkpointer.inlineLimit {
                    // Fallen behind: as SQLite's own hook would, on this connection.
                    sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
                checkpointer.committed(walPages: Int(walPages))
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Starts the checkpointing thread (`init` does, unless told not to).
    public func start() {
        let begin: Bool = condition.withLock {
            guard !running else { return false }
            running = true
            stopping = false
            return true
        }
        guard begin else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = "swipe-checkpointer"
        thread.start()
    }

    /// Stops the thread, after the checkpoint it is running, if any.
    public func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
            while running { condition.wait() }
        }
    }

    private func committed(walPages: Int) {
        condition.withLock {
            largestWAL = max(largestWAL, walPages)
            lastWAL = walPages
            if walPages >= pages {
                wanted = true
                condition.signal()
            }
        }
    }

    private func run() {
        condition.lock()
        while true {
            while !wanted && !stopping { condition.wait() }
            if stopping { break }
            wanted = false
            condition.unlock()
            // PASSIVE: as much as readers allow, without waiting; a busy
            // database is simply tried again at the next signal.
            let code = sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            condition.lock()
            if code == SQLITE_OK { completed += 1 }
            condition.broadcast()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
