import CLibPQ

/// A statement prepared on the server once per session, then executed with
/// bound arguments. Obtain one from `PGConnection.statement(_:)`, which
/// caches it. Results come back in binary (see `PGRow` for what it reads).
public final class PGStatement {
    /// Unowned: the connection's cache owns its statements.
    unowned let connection: PGConnection
    /// The SQL it was prepared from.
    public let sql: String
    private(set) var name: String
    /// The parameter types the server inferred ($1 first).
    public private(set) var parameterTypes: [Oid] = []
    private var session = -1

    init(connection: PGConnection, sql: String, name: String) throws {
        self.connection = connection
        self.sql = sql
        self.name = name
        try prepare()
    }

    /// Prepares (again, after a reconnect) and learns the parameter types, so
    /// each argument can be sent in the type's own binary form: Parse and
    /// Describe in one flight (`PGConnection.flight`), one round trip where
    /// `PQprepare` and `PQdescribePrepared` took two. A process's first
    /// statements are all new to it: the REPL prepares about twenty before
    /// its first card.
    private func prepare() throws {
        let name = name, sql = sql
        let answers = try connection.flight(sql: sql) { handle in
            PQsendPrepare(handle, name, sql, 0, nil) == 1 && PQsendDescribePrepared(handle, name) == 1
        }
        defer { answers.forEach { PQclear($0) } }
        guard answers.count == 2 else { throw connection.error(from: answers.last, sql: sql, arguments: []) }
        try connection.check(answers[0], sql: sql, arguments: [])
        try connection.check(answers[1], sql: sql, arguments: [])
        parameterTypes = (0..<PQnparams(answers[1])).map { PQparamtype(answers[1], $0) }
        session = connection.session
    }

    /// The arguments in each parameter's binary form.
    func encode(_ arguments: [PostgresValue]) throws -> ParameterBuffer {
        var encoded = ParameterBuffer()
        for (value, type) in zip(arguments, parameterTypes) {
            do {
                try encoded.append(value, as: type)
            } catch let message as ParameterBuffer.Refusal {
                throw connection.clientError(message.text, sql: sql, arguments: arguments)
            }
        }
        return encoded
    }

    /// Whether it is prepared in the connection's current session.
    var isPrepared: Bool { session == connection.session }

    /// Sends it with `encoded` (`count` arguments) on `handle`, in pipeline mode: for a read ahead.
    func send(_ encoded: ParameterBuffer, count: Int, on handle: OpaquePointer) -> Int32 {
        encoded.withParameters { values, lengths, formats in
            PQsendQueryPrepared(handle, name, Int32(count), values, lengths, formats, 1)
        }
    }

    /// Runs the statement with `arguments` and returns its rows.
    public func query(_ arguments: [PostgresValue]) throws -> PGResult {
        // An answer read ahead may be stale once anything else runs (`PGConnection+ReadAhead.swift`).
        connection.dropReadAheadAnswer()
        if session != connection.session { try prepare() }
        guard arguments.count == parameterTypes.count else {
            throw connection.clientError(
                "the statement takes \(parameterTypes.count) argument(s), \(arguments.count) given",
                sql: sql, arguments: arguments)
        }
        let encoded = try encode(arguments)
        do {
            return try executePrepared(encoded, arguments)
        } catch let error as PostgresError where error.isStalePlan && !connection.isInTransaction {
            // The table changed shape since the statement was prepared (a
            // migration in another session): prepare it again, once. Inside a
            // transaction the failure has aborted it, so it goes to the caller.
            try prepareAgain()
            return try executePrepared(encoded, arguments)
        }
    }

    private func executePrepared(_ encoded: ParameterBuffer, _ arguments: [PostgresValue]) throws -> PGResult {
        if let begin = connection.takeDeferredBegin() {
            let name = name
            return try connection.pipelined(after: begin, sql: sql, arguments: arguments) { handle in
                encoded.withParameters { values, lengths, formats in
                    PQsendQueryPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 1)
                }
            }
        }
        let result = encoded.withParameters { values, lengths, formats in
            PQexecPrepared(connection.handle, name, Int32(arguments.count), values, lengths, formats, 1)
        }
        do {
            try connection.check(result, sql: sql, arguments: arguments)
        } catch {
            PQclear(result)
            throw error
        }
        return PGResult(result!, sql: sql)
    }

    /// Prepares under a new name (PostgreSQL 15's libpq cannot close a
    /// prepared statement without SQL; the old one goes with the session).
    private func prepareAgain() throws {
        name = connection.nextStatementName()
        try prepare()
    }

    /// Variadic form of `query(_:)`.
    public func query(_ arguments: PostgresValue...) throws -> PGResult { try query(arguments) }

    /// Runs the statement and returns the number of rows it inserted,
    /// updated, deleted or copied (0 for other commands).
    @discardableResult
    public func run(_ arguments: [PostgresValue]) throws -> Int { try query(arguments).affectedRows }

    /// Variadic form of `run(_:)`.
    @discardableResult
    public func run(_ arguments: PostgresValue...) throws -> Int { try run(arguments) }

    /// The first row turned into a value, or nil when there is none.
    public func first<T>(_ arguments: [PostgresValue], _ transform: (PGRow) throws -> T) throws -> T? {
        let result = try query(arguments)
        return result.count > 0 ? try transform(result[0]) : nil
    }

    /// The rows, each turned into a value by `transform`.
    public func map<T>(_ arguments: [PostgresValue], _ transform: (PGRow) throws -> T) throws -> [T] {
        try query(arguments).map(transform)
    }
}
