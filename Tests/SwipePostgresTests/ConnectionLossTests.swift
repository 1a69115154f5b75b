import SwipePostgres
import SwipeTestSupport
import Testing

/// A connection the server drops is reported as lost (its own error kind, so
/// a caller can reconnect once), and a reconnect gives a working session.
@Suite(.needsPostgres) struct ConnectionLossTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    /// Ends `victim`'s server process from another session and waits (up to
    /// 60 s, server-side) until it is gone.
    func terminate(_ victim: PGConnection) throws {
        let killer = try database.connect()
        let ended = try killer.query("SELECT pg_terminate_backend($1, 60000)", .integer(Int64(victim.backendPID)))
        #expect(try ended[0].bool(0), "the backend did not end within 60 s")
    }

    @Test func aTerminatedBackendIsALostConnectionAndReconnectWorks() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8)")
        let insert = try connection.statement("INSERT INTO t VALUES ($1)")
        try insert.run(.integer(1))
        let before = connection.backendPID
        try terminate(connection)

        let error = #expect(throws: PostgresError.self) { try insert.run(.integer(2)) }
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(error?.isConnectionLost == true)
        #expect(error?.sql == "INSERT INTO t VALUES ($1)")
        #expect(error?.arguments == [.integer(2)])
        #expect(error?.description.contains("the connection to PostgreSQL was lost") == true)
        #expect(!connection.isConnected)

        try connection.reconnect()
        #expect(connection.isConnected)
        #expect(connection.backendPID != before)
        // The statement prepared in the old session prepares itself again.
        try insert.run(.integer(3))
        #expect(try connection.query("SELECT k FROM t ORDER BY k").map { try $0.int(0) } == [1, 3])
    }

    @Test func aLostConnectionInsideATransactionIsNotRetried() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8)")
        var attempts = 0
        let error = #expect(throws: PostgresError.self) {
            try connection.retryingTransaction { _ in
                attempts += 1
                try connection.run("INSERT INTO t VALUES ($1)", .integer(1))
                try terminate(connection)
                try connection.run("INSERT INTO t VALUES ($1)", .integer(2))
            }
        }
        #expect(error?.kind == .connectionLost)
        #expect(attempts == 1, "a lost connection's outcome is unknown: never retried blindly")
        try connection.reconnect()
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func simpleQueriesAndCopyReportTheLossToo() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8)")
        try terminate(connection)
        let simple = #expect(throws: PostgresError.self) { try connection.execute("SELECT 1") }
        #expect(simple?.kind == .connectionLost)
        try connection.reconnect()
        try terminate(connection)
        let copy = #expect(throws: PostgresError.self) {
            try connection.copy("COPY t FROM STDIN") { try $0.row(.integer(1)) }
        }
        #expect(copy?.kind == .connectionLost)
        try connection.reconnect()
        try connection.copy("COPY t FROM STDIN") { try $0.row(.integer(1)) }
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func aConnectionLostInTheMiddleOfACopyIsReportedAndNothingIsCopied() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8, s text)")
        let error = #expect(throws: PostgresError.self) {
            try connection.copy("COPY t FROM STDIN") { writer in
                for k in 1...50_000 { try writer.row(.integer(Int64(k)), .text("row \(k) of the first half")) }
                try terminate(connection)
                for k in 50_001...100_000 { try writer.row(.integer(Int64(k)), .text("row \(k) of the second half")) }
            }
        }
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        try connection.reconnect()
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 0)
    }
}

/// A transaction's fate can be looked up by its id from another session:
/// what a caller does after losing the connection during COMMIT.
@Suite(.needsPostgres) struct CommitStatusTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }
    struct Stop: Error {}

    @Test func committedAbortedAndLostTransactionsAreToldApart() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8)")
        let observer = try database.connect()

        var committed: Int64 = 0
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES ($1)", .integer(1))
            committed = try connection.currentTransactionID()
            #expect(try observer.transactionStatus(committed) == .inProgress)
        }
        #expect(try observer.transactionStatus(committed) == .committed)

        var rolledBack: Int64 = 0
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", .integer(2))
                rolledBack = try connection.currentTransactionID()
                throw Stop()
            }
        }
        #expect(rolledBack > committed)
        #expect(try observer.transactionStatus(rolledBack) == .aborted)

        // Lost before COMMIT reached the server: looked up, it did not commit.
        var lost: Int64 = 0
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", .integer(3))
                lost = try connection.currentTransactionID()
                let ended = try observer.query(
                    "SELECT pg_terminate_backend($1, 60000)", .integer(Int64(connection.backendPID)))
                #expect(try ended[0].bool(0))
            }
        }
        #expect(error?.kind == .connectionLost)
        try connection.reconnect()
        #expect(try connection.transactionStatus(lost) == .aborted)
        #expect(try connection.query("SELECT k FROM t ORDER BY k").map { try $0.int(0) } == [1])
        #expect(throws: PostgresError.self) { try connection.currentTransactionID() }
    }
}
