import CLibPQ

/// A `COPY … FROM STDIN` kept open between calls, for a loader that gets
/// its rows one at a time from a loop it does not own (the CSV import's):
/// `copy(_:_:)` wants the rows inside one closure.
///
/// Start it, write rows through `writer`, then `finish()` (the server
/// checks and stores them: the number of rows) or `abort(_:)` (the server
/// discards them all). Nothing else may run on the connection meanwhile.
/// A stream dropped while open aborts itself.
final class PGCopyStream {
    private unowned let connection: PGConnection
    let sql: String
    private var writer: PGCopyWriter
    private var isOpen = true

    /// Sends `sql` (a COPY … FROM STDIN statement).
    init(connection: PGConnection, sql: String) throws {
        connection.dropReadAheadAnswer()
        let started = PQexec(connection.handle, sql)
        defer { PQclear(started) }
        guard let started, PQresultStatus(started) == PGRES_COPY_IN else {
            try connection.check(started, sql: sql, arguments: [])
            throw connection.clientError("a copy stream runs COPY … FROM STDIN only", sql: sql, arguments: [])
        }
        self.connection = connection
        self.sql = sql
        writer = PGCopyWriter(connection: connection)
    }

    deinit { if isOpen { abort("the import stopped") } }

    /// Writes through `writer`; a send libpq refuses (the connection broke,
    /// the server ended the COPY) comes out as the connection's error.
    func write(_ body: (inout PGCopyWriter) throws -> Void) throws {
        do {
            try body(&writer)
        } catch let failure as PGCopyWriter.SendFailure {
            throw failure.error
        }
    }

    /// Sends what is buffered, ends the COPY and returns how many rows the
    /// server stored. A bad row or a lost connection throws; the COPY is
    /// over either way.
    func finish() throws -> Int {
        isOpen = false
        var failure: PostgresError?
        do { try writer.flush() } catch let error as PGCopyWriter.SendFailure { failure = error.error }
        if connection.isConnected, PQputCopyEnd(connection.handle, nil) != 1, failure == nil {
            failure = connection.error(from: nil, sql: sql, arguments: [])
        }
        let (copied, serverFailure) = drainResults()
        // The server's own error explains a refused send better than libpq's.
        if let failure = serverFailure ?? failure { throw failure }
        if !connection.isConnected { throw connection.error(from: nil, sql: sql, arguments: []) }
        return copied
    }

    /// Ends the COPY with `reason` as its error: the server stores none of
    /// its rows. Never throws: it runs on the way out of a failure.
    func abort(_ reason: String) {
        guard isOpen else { return }
        isOpen = false
        if connection.isConnected { _ = PQputCopyEnd(connection.handle, reason) }
        _ = drainResults()
    }

    private func drainResults() -> (copied: Int, failure: PostgresError?) {
        var copied = 0
        var failure: PostgresError?
        while let result = PQgetResult(connection.handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if failure == nil {
                failure = connection.error(from: result, sql: sql, arguments: [])
            }
        }
        return (copied, failure)
    }
}
