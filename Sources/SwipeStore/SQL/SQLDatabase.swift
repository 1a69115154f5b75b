/// A swipe database kept in SQL: what a backend's store (`SQLiteStore`,
/// `PostgresStore`) provides so that every rule of the store is written once,
/// here in SwipeStore (`SQLDatabase+Ledger`, `+Moderation`, `+Settings`,
/// `+Queries`, `+Stats`, `+Preferences`, `+Profiles`), as Swift over its
/// executor. A backend brings its connection (the executor), how it runs a
/// write (`write`: SQLite's `BEGIN IMMEDIATE` or savepoint; PostgreSQL's
/// READ COMMITTED transaction with retries and reconnects), how it runs a
/// read (`read`), and what only it can do (feeds, bulk import, upserts).
public protocol SQLDatabase: AnyObject {
    associatedtype Executor: SQLExecutor

    /// The connection the rules run their statements on.
    var executor: Executor { get }

    /// Runs `body` in one write transaction (a savepoint inside one already
    /// open), committed when it returns, rolled back when it throws.
    @discardableResult
    func write<T>(_ body: () throws -> T) throws -> T

    /// Runs `body`, which only reads, on a live session.
    func read<T>(_ body: () throws -> T) throws -> T

    /// After an erase committed: whatever the backend does so that no byte
    /// of the erased rows stays in its files (SQLite: the WAL checkpointed
    /// and truncated; freed pages are zeroed by `secure_delete` as they go).
    /// Best effort: a reader holding an old snapshot can keep a checkpoint
    /// from finishing, and the next one finishes it.
    func scrubAfterErase()
}

extension SQLDatabase {
    /// Nothing to do (PostgreSQL: VACUUM reclaims dead rows, Documentation/PersonalData.md).
    public func scrubAfterErase() {}
}

extension SQLDatabase {
    /// The internal key of the profile with external id `id`, or nil.
    public func profileKey(id: String) throws -> Int? {
        guard executor.dialect.canHold(id) else { return nil }
        return try executor.first("SELECT key FROM profiles WHERE id = $1", [.text(id)]) { try $0.int("key") }
    }

    /// The internal key of `id`, or `StoreError.unknownProfile`.
    package func requireKey(_ id: String) throws -> Int {
        guard let key = try profileKey(id: id) else { throw StoreError.unknownProfile(id) }
        return key
    }

    /// The keys of two different profiles, locked as the acting viewer and
    /// the pair, or the error naming what is wrong.
    func lockedPair(_ viewer: String, _ profile: String, action: String) throws -> (Int, Int) {
        let me = try requireKey(viewer), them = try requireKey(profile)
        guard me != them else { throw StoreError.selfAction(viewer, action: action) }
        try executor.lockViewer(me)
        try executor.lockPair(me, them)
        return (me, them)
    }
}
