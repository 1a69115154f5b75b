import CLibPQ

/// BEGIN sent with the statement after it, in one round trip (libpq's
/// pipeline mode): a write transaction's first statement no longer waits
/// for BEGIN's answer first (issue 23, "PostgreSQL likes in one round trip").
///
/// `PostgresStore.write` calls `beginWithNextStatement` instead of
/// executing BEGIN; the next prepared statement sends both and reads both
/// answers; `execute` (simple protocol) sends the BEGIN first, and a
/// COMMIT or ROLLBACK with nothing sent since ends nothing and sends
/// nothing. Until then `isInTransaction` already says true. A connection
/// lost on the way fails the statement as any lost connection does: its
/// transaction never reached COMMIT.
extension PGConnection {
    /// Opens a transaction with `begin` (a BEGIN statement) together with the next statement.
    /// (Inside an open transaction the BEGIN only draws the server's
    /// warning, as an immediate one would: nothing traps.)
    public func beginWithNextStatement(_ begin: String) {
        deferredBegin = begin
    }

    /// The BEGIN still to send, now taken (nil when there is none).
    func takeDeferredBegin() -> String? {
        defer { deferredBegin = nil }
        return deferredBegin
    }

    /// Sends what `send` sends (each message queued in pipeline mode), then
    /// one Sync, and returns the answers up to the Sync's, in order, for the
    /// caller to check and clear: one round trip. After a failed message the
    /// server skips the rest, which then have no answer.
    func flight(sql: String, arguments: [PostgresValue] = [], _ send: (OpaquePointer) -> Bool) throws
        -> [OpaquePointer]
    {
        guard PQenterPipelineMode(handle) == 1 else {
            throw clientError("libpq could not enter pipeline mode", sql: sql, arguments: arguments)
        }
        defer { if PQstatus(handle) == CONNECTION_OK { _ = PQexitPipelineMode(handle) } }
        guard send(handle) && PQpipelineSync(handle) == 1 else {
            throw error(from: nil, sql: sql, arguments: arguments)
        }
        // Each statement's answer is followed by a NULL; the Sync's comes last.
        var answers: [OpaquePointer] = []
        var nulls = 0
        while PQstatus(handle) == CONNECTION_OK {
            guard let answer = PQgetResult(handle) else {
                nulls += 1
                if nulls > answers.count + 1 { break }
                continue
            }
            if PQresultStatus(answer) == PGRES_PIPELINE_SYNC {
                PQclear(answer)
                break
            }
            answers.append(answer)
        }
        return answers
    }

    /// Runs `statements` (each SQL with its arguments, bound as text: the
    /// server reads each as its parameter's type) unprepared, in one flight:
    /// one round trip for reads run once per session. The answers of those
    /// that ran, in order, up to the first that failed, and that failure (the
    /// server skips the rest). Outside a transaction, as PostgreSQL's
    /// implicit one: a failure leaves the session idle.
    func flight(_ statements: [(sql: String, arguments: [String])]) throws -> (
        answers: [PGResult], failure: PostgresError?
    ) {
        let sql = statements.first?.sql ?? ""
        var answers = try flight(sql: sql) { handle in
            statements.allSatisfy { statement in
                withCStrings(statement.arguments) { values in
                    PQsendQueryParams(
                        handle, statement.sql, Int32(statement.arguments.count), nil, values, nil, nil, 1) == 1
                }
            }
        }
        var results: [PGResult] = []
        var failure: PostgresError?
        for (index, answer) in answers.enumerated() {
            let status = PQresultStatus(answer)
            guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
                failure = error(from: answer, sql: statements[index].sql, arguments: [])
                break
            }
            results.append(PGResult(answer, sql: statements[index].sql))
        }
        answers.removeFirst(results.count)
        answers.forEach { PQclear($0) }
        if results.count < statements.count && failure == nil {
            failure = error(from: nil, sql: statements[results.count].sql, arguments: [])
        }
        return (results, failure)
    }

    /// Sends `begin`, then the statement `send` sends, then one Sync, and
    /// reads the two answers: BEGIN's checked, the statement's returned.
    func pipelined(
        after begin: String, sql: String, arguments: [PostgresValue], _ send: (OpaquePointer) -> Int32
    ) throws -> PGResult {
        let ahead = takeReadAheadSender()
        var answers = try flight(sql: sql, arguments: arguments) { handle in
            PQsendQueryParams(handle, begin, 0, nil, nil, nil, nil, 0) == 1 && send(handle) == 1
                && (ahead.map { $0.send(handle) == 1 } ?? true)
        }
        defer { answers.forEach { PQclear($0) } }
        // The read ahead's answer, when it was sent and answered (after a
        // failed statement the server skips it: then it is not kept).
        if let ahead, answers.count == 3 {
            let answer = answers.removeLast()
            if PQresultStatus(answer) == PGRES_TUPLES_OK {
                readAheadAnswer = ReadAheadAnswer(read: ahead.read, rows: PGResult(answer, sql: ahead.read.sql))
            } else {
                PQclear(answer)
            }
        }
        guard answers.count == 2 else {
            throw error(from: answers.last, sql: sql, arguments: arguments)
        }
        try check(answers[0], sql: begin, arguments: [])
        try check(answers[1], sql: sql, arguments: arguments)
        let result = answers.removeLast()
        return PGResult(result, sql: sql)
    }
}
