extension PGConnection {
    /// What became of a transaction, by its id (`pg_xact_status`).
    public enum TransactionStatus: String, Sendable {
        case committed
        case aborted
        case inProgress = "in progress"
        /// Too old for the server to remember (wrapped around), or never assigned.
        case unknown
    }

    /// The id of the open transaction, assigning one if it has none yet.
    /// Take it before COMMIT: if the connection is lost during COMMIT, the
    /// outcome is unknown, and `transactionStatus(_:)` from a new session
    /// tells whether it committed, so a write is neither doubled nor lost.
    public func currentTransactionID() throws -> Int64 {
        guard isInTransaction else {
            throw clientError("a transaction id exists only inside a transaction", sql: nil, arguments: [])
        }
        guard let id = try scalarInt("SELECT pg_current_xact_id()::text::int8") else {
            throw clientError("the server returned no transaction id", sql: nil, arguments: [])
        }
        return Int64(id)
    }

    /// Whether the transaction `id` committed, aborted or is still running.
    public func transactionStatus(_ id: Int64) throws -> TransactionStatus {
        let status = try scalarText("SELECT pg_xact_status($1::text::xid8)", .text(String(id)))
        return status.flatMap(TransactionStatus.init(rawValue:)) ?? .unknown
    }
}
