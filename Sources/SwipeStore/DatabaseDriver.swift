/// How hard a commit is made durable before it is acknowledged (`--sync`),
/// said once for every backend; each driver maps it to its own setting.
public enum Durability: String, Sendable, CaseIterable {
    /// Survives a crash of swipe (SQLite `synchronous = NORMAL` in WAL;
    /// PostgreSQL `synchronous_commit = on`).
    case normal
    /// Also survives a crash of the machine or a power cut (SQLite `FULL`:
    /// an fsync per commit; PostgreSQL `remote_apply`: synchronous standbys apply it).
    case full
}

/// How the writes of one serving process meet on a backend: said by the
/// driver, obeyed by the server's write queue. The one type for it.
public enum WritePolicy: Sendable {
    /// SQLite: one writer per file. The process's writes queue and commit
    /// in groups rather than meet SQLITE_BUSY (whose busy handler sleeps);
    /// other processes are covered by the busy timeout.
    case oneAtATime
    /// PostgreSQL: writers run side by side; the store's transactions and
    /// row locks decide (two mutual likes at once make exactly one match).
    case concurrent
}

/// One backend, as the executable uses it: how to open its database for
/// each kind of command, how a serving process writes to it, how matches
/// reach other serving processes, and the upkeep it needs while served.
/// The executable picks one driver from `--db`, once (`SQLiteDriver` for a
/// file, `PostgresDriver` for a `postgres://` URI); nothing else asks which
/// backend it is.
public protocol DatabaseDriver: Sendable {
    /// Where the database is, for messages (a URI without its password).
    var location: String { get }

    /// Opens for `swipe import`, the one command that creates a database.
    func openCreating() throws -> any SwipeDatabase
    /// Opens to write, refusing a missing database (`DatabaseOpenError.missing`).
    func openExisting() throws -> any SwipeDatabase
    /// Opens read-only: nothing is written.
    func openReading() throws -> any SwipeDatabase

    /// How a serving process's writes meet.
    var writePolicy: WritePolicy { get }
    /// How matches reach other processes serving the same database.
    func matchRelay() -> any MatchRelay
    /// Starts the upkeep a served database needs for as long as the process
    /// lives (SQLite: checkpoints on a thread of their own), and returns
    /// what to do with each store the server opens (nil: nothing).
    func startMaintenance() throws -> (@Sendable (any SwipeDatabase) -> Void)?
}

extension DatabaseDriver {
    public var writePolicy: WritePolicy { .concurrent }
    public func matchRelay() -> any MatchRelay { LocalMatchRelay() }
    public func startMaintenance() throws -> (@Sendable (any SwipeDatabase) -> Void)? { nil }
}
