import CLibPQ

/// A read that travels in the next write's flight (issue 23, REPL like p50
/// ≤ 1 ms on PostgreSQL): a REPL like was three round trips, the decision
/// (BEGIN pipelined with `swipe_decide_2`), COMMIT, and the next card's read
/// (the viewer's state with the batch's next card, `feedStateAndNext`). The
/// feed knows that read before the decision is made, so it leaves it here
/// (`readWithNextWrite`); the write's flight sends it after its statement,
/// before the Sync: BEGIN, the decision, the read, in one round trip. The
/// read runs inside the write's transaction, after its statement: it sees
/// the decision as the read after COMMIT would.
///
/// Its answer is kept for one use (`takeReadAnswer`, with the same SQL and
/// arguments), and only while nothing else has run but that write's COMMIT:
/// any other statement on the connection drops it (a later statement of the
/// same write could change what it read), so does a write that did not
/// commit (`dropReadAhead`, from `PostgresStore.write`'s rollback: the read
/// saw what was rolled back) and a reconnect (a lost write reconnects before
/// anything else). A read whose write failed on the server is skipped by
/// the server and not kept. Another session's commit between the read and
/// the fetch is missed as it would be by a read one round trip earlier: the
/// read ran just before this write's COMMIT. Whoever takes nothing runs the
/// read as usual: the answer is the same either way, one round trip later.
///
/// Internal to SwipePostgres: only `PostgresFeed` leaves a read, and only
/// the REPL's feed, whose connection is its own.
extension PGConnection {
    /// The read to send with the next write's statement.
    struct ReadAhead {
        var sql: String
        var arguments: [PostgresValue]
    }

    /// Its answer, kept until taken or dropped.
    struct ReadAheadAnswer {
        var read: ReadAhead
        var rows: PGResult
    }

    /// Leaves `sql` with `arguments` (a statement this connection has already
    /// prepared; any other is not sent) to ride with the next write that
    /// pipelines its BEGIN.
    func readWithNextWrite(_ sql: String, _ arguments: [PostgresValue]) {
        readAhead = ReadAhead(sql: sql, arguments: arguments)
    }

    /// The rows `sql` with `arguments` returned in the last write's flight,
    /// when that is the read that rode with it and nothing ran since; nil
    /// otherwise. Either way the answer is gone afterwards.
    func takeReadAnswer(_ sql: String, _ arguments: [PostgresValue]) -> PGResult? {
        defer { readAheadAnswer = nil }
        guard let answer = readAheadAnswer, answer.read.sql == sql, answer.read.arguments == arguments else {
            return nil
        }
        readAheadAnswersTaken += 1
        return answer.rows
    }

    /// Forgets the read still to send and any answer kept.
    func dropReadAhead() {
        readAhead = nil
        readAheadAnswer = nil
    }

    /// Forgets the answer kept, if any.
    func dropReadAheadAnswer() { readAheadAnswer = nil }

    /// The read to send now and how to send it, taken: nil when there is
    /// none, or its statement is not prepared in this session, or its
    /// arguments do not encode (then it is simply not sent).
    func takeReadAheadSender() -> (read: ReadAhead, send: (OpaquePointer) -> Int32)? {
        defer { readAhead = nil }
        guard let read = readAhead, let statement = cachedStatement(read.sql), statement.isPrepared,
            read.arguments.count == statement.parameterTypes.count, let encoded = try? statement.encode(read.arguments)
        else { return nil }
        let count = read.arguments.count
        return (read, { handle in statement.send(encoded, count: count, on: handle) })
    }
}
