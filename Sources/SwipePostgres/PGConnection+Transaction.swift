#if canImport(Glibc)
    import Glibc
#endif

extension PGConnection {
    /// The isolation levels PostgreSQL implements (READ UNCOMMITTED behaves as
    /// READ COMMITTED there, so it is not offered).
    public enum IsolationLevel: String, Sendable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction: BEGIN, then COMMIT when it returns and
    /// ROLLBACK when it throws (or when COMMIT fails). Transactions do not
    /// nest: calling this inside one is an error, not a silent join.
    public func transaction<T>(_ isolation: IsolationLevel = .readCommitted, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw clientError("a transaction is already open on this connection", sql: nil, arguments: [])
        }
        try execute(Self.beginSQL(isolation))
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isConnected && isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a transaction and, when it fails with a serialization
    /// failure (40001) or a deadlock (40P01), which PostgreSQL's documentation
    /// says to answer by running the whole transaction again, rolls back and
    /// runs it again, up to `maxAttempts` times, after a short random pause
    /// that grows with each attempt. `body` gets the attempt number (1, 2, …)
    /// and must do nothing outside the database that it could not repeat.
    ///
    /// A lost connection is never retried here: whether COMMIT took effect is
    /// unknown, and only the caller can look that up.
    public func retryingTransaction<T>(
        _ isolation: IsolationLevel = .serializable, maxAttempts: Int = 10, _ body: (_ attempt: Int) throws -> T
    ) throws -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(isolation) { try body(attempt) }
            } catch let error as PostgresError where error.isRetryableTransactionFailure && attempt < maxAttempts {
                // Backing off at random keeps two retrying rivals from colliding again in lockstep.
                let ceiling = UInt32(min(1 << attempt, 64))
                usleep(UInt32.random(in: 0...ceiling) * 1000)
                attempt += 1
            }
        }
    }

    static func beginSQL(_ isolation: IsolationLevel) -> String {
        switch isolation {
        case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
        case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}
