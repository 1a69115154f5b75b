import CLibPQ
import Foundation
import SwipeStore

/// The PostgreSQL side of the REPL's `like`, with no swipe code around it:
/// the decision exactly as swipe's store sends it (BEGIN pipelined with
/// `swipe_decide_2`, then COMMIT: two round trips), through libpq's C API
/// alone, one new connection per viewer as each `swipe repl` process opens
/// one. What a like costs the database and the trip to it; the rest of a
/// REPL like (the next card's read, the deck, the JSON line, the pipes) is
/// swipe's. No statement cache, no value enums, no errors with context.
enum RawDecisionLoop {
    /// The SQL `PostgresStore.record` prepares.
    static let decideSQL = "SELECT * FROM swipe_decide_2($1, $2, $3, $4, $5, $6)"

    /// Each viewer, on a connection of its own, likes its profiles in
    /// turn; returns the time of each like that `swipe_decide_2` recorded
    /// (a profile the viewer had decided before is passed over, untimed).
    /// The first like of a connection includes its PREPARE, as swipe's does.
    static func likes(uri: String, viewers: [(viewer: String, profiles: [String])], perViewer: Int) throws
        -> Samples
    {
        var samples = Samples()
        for (viewer, profiles) in viewers {
            guard let connection = PQconnectdb(uri), PQstatus(connection) == CONNECTION_OK else {
                throw BenchError("libpq could not connect to \(uri)")
            }
            defer { PQfinish(connection) }
            var prepared = false
            var recorded = 0
            for profile in profiles where recorded < perViewer {
                var outcome = ""
                let seconds = try Clock.time {
                    if !prepared {
                        try expect(PQprepare(connection, "decide", decideSQL, 6, nil), PGRES_COMMAND_OK, connection)
                        prepared = true
                    }
                    outcome = try decide(connection, viewer: viewer, profile: profile)
                    try expect(PQexec(connection, "COMMIT"), PGRES_COMMAND_OK, connection)
                }
                if outcome == "recorded" || outcome == "missed" {
                    samples.append(seconds)
                    recorded += 1
                }
            }
            guard recorded == perViewer else {
                throw BenchError("\(viewer): swipe_decide_2 recorded \(recorded) of \(perViewer) likes")
            }
        }
        return samples
    }

    /// BEGIN and the decision in one flight (libpq's pipeline mode, as
    /// `PGConnection.pipelined`); returns the function's outcome.
    private static func decide(_ connection: OpaquePointer, viewer: String, profile: String) throws -> String {
        let now = Date()
        let arguments = [
            viewer, profile, "like", "button", Timestamp.string(from: now),
            Timestamp.string(from: now.addingTimeInterval(-86_400)),
        ]
        guard PQenterPipelineMode(connection) == 1 else { throw BenchError("libpq: no pipeline mode") }
        defer { PQexitPipelineMode(connection) }
        var strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let sent = strings.withUnsafeMutableBufferPointer { values -> Bool in
            values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                PQsendQueryParams(connection, "BEGIN ISOLATION LEVEL READ COMMITTED", 0, nil, nil, nil, nil, 0) == 1
                    && PQsendQueryPrepared(connection, "decide", 6, pointers.baseAddress, nil, nil, 0) == 1
                    && PQpipelineSync(connection) == 1
            }
        }
        guard sent else { throw BenchError("libpq: \(String(cString: PQerrorMessage(connection)))") }
        var outcome: String?
        var failure: String?
        while true {
            guard let result = PQgetResult(connection) else {
                guard PQstatus(connection) == CONNECTION_OK else { throw BenchError("libpq: the connection was lost") }
                continue
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { break }
            if status == PGRES_TUPLES_OK, PQntuples(result) == 1 {
                outcome = String(cString: PQgetvalue(result, 0, PQfnumber(result, "outcome")))
            } else if status != PGRES_COMMAND_OK {
                failure = String(cString: PQresultErrorMessage(result))
            }
        }
        if let failure { throw BenchError("swipe_decide_2: \(failure)") }
        guard let outcome else { throw BenchError("swipe_decide_2 returned no row") }
        return outcome
    }

    private static func expect(_ result: OpaquePointer?, _ status: ExecStatusType, _ connection: OpaquePointer)
        throws
    {
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == status else {
            throw BenchError("libpq: \(String(cString: PQerrorMessage(connection)))")
        }
    }
}
