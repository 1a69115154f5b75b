extension PGConnection {
    /// Why writes lock, and what (`SQLExecutor`'s two lock hooks, which the
    /// rules in SwipeStore call; `PostgresStore.write` runs the transaction).
    ///
    /// Under READ COMMITTED each statement sees what was committed before it
    /// began, never another transaction's uncommitted rows. Two people liking
    /// each other at the same instant would then each check for the other's
    /// like, each find none, and no match would be made (the classic race);
    /// a block written while the other side's like is in flight could leave a
    /// match standing across the block; two likes by one viewer could both
    /// pass the daily quota's count. So every transaction that reads what it
    /// then decides on takes, before reading, the locks that serialise it
    /// with exactly the transactions that could change that answer:
    ///
    /// 1. the acting viewer's profile row, `FOR NO KEY UPDATE` (`lockViewer`):
    ///    one person's decisions, undos and quota checks run one at a time.
    ///    This lock does not conflict with the `KEY SHARE` locks that foreign
    ///    keys take, so other people deciding about this viewer never wait.
    /// 2. the pair, a transaction-scoped advisory lock on the two keys in
    ///    (low, high) order (`lockPair`): the like, the match check, undo,
    ///    block, unblock and unmatch of the same two people run one at a
    ///    time, whoever acts. The second of two mutual likes waits for the
    ///    first to commit, then (a new statement, a new snapshot) sees its like
    ///    and makes the match: never none. The match row's primary key
    ///    (low, high) and `ON CONFLICT DO NOTHING` make a second one impossible:
    ///    never two. A pair lock, not a lock on the liked profile's row, so
    ///    that many people liking one popular profile do not queue behind
    ///    each other.
    ///
    /// Always in that order (a transaction takes at most one viewer row and
    /// then one pair), so two writers never wait for each other in a cycle.
    /// `PostgresMatchRaceTests` runs the mutual-like race hundreds of times.
    /// The alternative, SERIALIZABLE with retries, would also be exact, but
    /// retries every loser of a conflict and needs the whole body repeatable.
    public func lockViewer(_ key: Int) throws {
        try run("SELECT 1 FROM profiles WHERE key = $1 FOR NO KEY UPDATE", .int(key))
    }

    /// Takes the advisory lock of the pair `a`, `b` until the transaction
    /// ends. The two-`int4` form keyed by each key modulo 2^31: two pairs
    /// that share a lock only wait for each other, which is never wrong.
    public func lockPair(_ a: Int, _ b: Int) throws {
        try run(
            "SELECT pg_advisory_xact_lock(($1::bigint % 2147483648)::int4, ($2::bigint % 2147483648)::int4)",
            .int(min(a, b)), .int(max(a, b)))
    }
}
