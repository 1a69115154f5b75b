/// A failure talking to PostgreSQL, with what a person needs to find it: what
/// kind of failure, the server's SQLSTATE and message (with its detail, hint
/// and context, which for COPY names the line), the statement and its
/// arguments, and the endpoint, which never holds a password.
///
/// Worded for any caller: it names no command-line option.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// No server answered at the endpoint's host and port (refused, timed out, no such host).
        case unreachable
        /// A server answered but refused the connection: authentication, no
        /// such database or role, too many connections.
        case rejected
        /// An established connection broke (the server restarted, the backend
        /// was terminated, the network dropped). The statement's outcome is
        /// unknown; `PGConnection.reconnect()` opens a new session.
        case connectionLost
        /// The server refused a statement: see `sqlState`.
        case server
        /// Refused here before anything was sent: a malformed URI, a wrong
        /// number of arguments, a column read as the wrong type.
        case client
    }

    public var kind: Kind
    /// The five-character SQLSTATE, e.g. `23505` (unique_violation); nil when
    /// the server sent none.
    public var sqlState: String?
    /// The server's (or libpq's, or this library's) primary message.
    public var message: String
    public var detail: String?
    public var hint: String?
    /// Where it happened, e.g. `COPY profiles, line 73512, column age: "abc"`.
    public var context: String?
    /// The constraint that failed, for integrity violations.
    public var constraint: String?
    /// The statement that failed, if any.
    public var sql: String?
    /// The arguments bound to it, by position ($1 first).
    public var arguments: [PostgresValue]
    /// The connection's user, host, port and database (never its password).
    public var endpoint: PostgresEndpoint?

    public init(
        kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil, hint: String? = nil,
        context: String? = nil, constraint: String? = nil, sql: String? = nil, arguments: [PostgresValue] = [],
        endpoint: PostgresEndpoint? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.context = context
        self.constraint = constraint
        self.sql = sql
        self.arguments = arguments
        self.endpoint = endpoint
    }

    /// 40001: a SERIALIZABLE or REPEATABLE READ transaction lost a conflict; running it again may succeed.
    public var isSerializationFailure: Bool { sqlState == "40001" }
    /// 40P01: the server broke a deadlock by failing this transaction.
    public var isDeadlock: Bool { sqlState == "40P01" }
    /// Whether running the whole transaction again is the documented remedy.
    public var isRetryableTransactionFailure: Bool { isSerializationFailure || isDeadlock }
    /// 55P03: a lock was not granted within `lock_timeout`.
    public var isLockNotAvailable: Bool { sqlState == "55P03" }
    /// 23505: a unique constraint or index refused a row.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    public var isConnectionLost: Bool { kind == .connectionLost }
    /// 0A000 "cached plan must not change result type": a table a prepared
    /// statement reads changed shape since it was prepared.
    var isStalePlan: Bool { sqlState == "0A000" && message.hasPrefix("cached plan must not change result type") }

    public var description: String {
        var text: String
        switch kind {
        case .unreachable:
            text =
                "cannot reach the PostgreSQL server"
                + (endpoint.map { " at \($0.host) port \($0.port)" } ?? "") + ": " + message
        case .rejected:
            text =
                "the PostgreSQL server refused the connection"
                + (endpoint.map { " as \($0.user) to \($0.database) at \($0.host) port \($0.port)" } ?? "") + ": "
                + message
        case .connectionLost:
            text =
                "the connection to PostgreSQL was lost"
                + (endpoint.map { " (\($0))" } ?? "") + "; the statement's outcome is unknown: " + message
        case .server:
            text = "PostgreSQL error \(sqlState ?? "?????"): \(message)"
        case .client:
            text = message
        }
        if let detail { text += " (\(detail))" }
        if let hint { text += " hint: \(hint)" }
        if let context { text += " [\(context)]" }
        if let sql { text += " in «\(sql)»" }
        if !arguments.isEmpty { text += " with arguments [\(arguments.map(\.description).joined(separator: ", "))]" }
        if kind == .server || kind == .client, let endpoint { text += " on \(endpoint)" }
        return text
    }
}
