import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// BEGIN/COMMIT/ROLLBACK, and the retry on serialization failure and deadlock.
@Suite(.needsPostgres) struct TransactionTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    struct Stop: Error {}

    func counters() throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(
            "CREATE TABLE counters (k int4 PRIMARY KEY, n int8 NOT NULL); INSERT INTO counters VALUES (1, 0), (2, 0)")
        return connection
    }

    @Test func commitKeepsAndRollbackDiscards() throws {
        let connection = try counters()
        let other = try database.connect()
        try connection.transaction {
            try connection.run("UPDATE counters SET n = n + 1 WHERE k = $1", .integer(1))
            #expect(connection.isInTransaction)
            // Not visible to another session before COMMIT.
            #expect(try other.scalarInt("SELECT n FROM counters WHERE k = 1") == 0)
        }
        #expect(!connection.isInTransaction)
        #expect(try other.scalarInt("SELECT n FROM counters WHERE k = 1") == 1)
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("UPDATE counters SET n = n + 100 WHERE k = $1", .integer(1))
                throw Stop()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try other.scalarInt("SELECT n FROM counters WHERE k = 1") == 1)
        // A failed statement aborts the transaction: it is rolled back, not committed half.
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("UPDATE counters SET n = n + 100 WHERE k = $1", .integer(1))
                try connection.run("INSERT INTO counters VALUES ($1, $2)", .integer(2), .integer(0))
            }
        }
        #expect(try other.scalarInt("SELECT n FROM counters WHERE k = 1") == 1)
    }

    @Test func transactionsDoNotNest() throws {
        let connection = try counters()
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction { try connection.transaction {} }
        }
        #expect(error?.kind == .client)
        #expect(!connection.isInTransaction)
    }

    /// A concurrent committed update after this transaction's snapshot makes
    /// its own update fail with 40001; the helper rolls back and runs the
    /// body again, which then sees the other update and adds to it.
    @Test func aSerializationFailureIsRetriedAndNothingIsLost() throws {
        let connection = try counters()
        let rival = try database.connect()
        var attempts: [Int] = []
        var sawFailure = false
        try connection.retryingTransaction(.serializable) { attempt in
            attempts.append(attempt)
            let seen = try connection.scalarInt("SELECT n FROM counters WHERE k = 1")!
            if attempt == 1 {
                try rival.run("UPDATE counters SET n = n + 10 WHERE k = $1", .integer(1))
                do {
                    try connection.run("UPDATE counters SET n = $1 WHERE k = 1", .integer(Int64(seen + 1)))
                } catch let error as PostgresError {
                    sawFailure = error.isSerializationFailure
                    throw error
                }
            } else {
                try connection.run("UPDATE counters SET n = $1 WHERE k = 1", .integer(Int64(seen + 1)))
            }
        }
        #expect(sawFailure, "the first attempt should have failed with 40001")
        #expect(attempts == [1, 2])
        #expect(try rival.scalarInt("SELECT n FROM counters WHERE k = 1") == 11)
    }

    @Test func retriesStopAtTheLimitWithTheLastError() throws {
        let connection = try counters()
        var attempts = 0
        let error = #expect(throws: PostgresError.self) {
            try connection.retryingTransaction(maxAttempts: 3) { _ in
                attempts += 1
                try connection.execute("DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'serialization_failure'; END $$")
            }
        }
        #expect(attempts == 3)
        #expect(error?.sqlState == "40001")
        // Other errors are not retried.
        attempts = 0
        #expect(throws: PostgresError.self) {
            try connection.retryingTransaction { _ in
                attempts += 1
                try connection.run("INSERT INTO counters VALUES ($1, $2)", .integer(1), .integer(0))
            }
        }
        #expect(attempts == 1)
    }

    /// Two sessions lock two rows in opposite orders: the server fails one
    /// with 40P01, the helper runs that one again, and both updates land.
    @Test func aDeadlockIsRetriedAndBothTransactionsLand() throws {
        _ = try counters()
        let uri = database.uri
        let barrier = TwoPartyBarrier()
        let attempts = Locked<[Int]>([])
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for (first, second) in [(1, 2), (2, 1)] {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let connection = try PGConnection(uri: uri)
                    try connection.execute("SET deadlock_timeout = '100ms'")
                    try connection.retryingTransaction(.readCommitted) { attempt in
                        attempts.withLock { $0.append(attempt) }
                        try connection.run("UPDATE counters SET n = n + 1 WHERE k = $1", .integer(Int64(first)))
                        if attempt == 1 { try barrier.arriveAndWait() }
                        try connection.run("UPDATE counters SET n = n + 1 WHERE k = $1", .integer(Int64(second)))
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success, "the two transactions did not finish")
        #expect(failures.value == [])
        // The server fails one of the two; its retry may meet the other again
        // (PostgreSQL re-queues a row-lock waiter behind a new locker), so
        // more retries are fine as long as one happened and both landed.
        #expect(attempts.value.filter { $0 == 1 }.count == 2)
        #expect(attempts.value.contains(2), "one of the two is run again: \(attempts.value)")
        let check = try database.connect()
        #expect(try check.scalarInt("SELECT sum(n)::int8 FROM counters") == 4)
    }
}

/// Two threads wait for each other (a generous deadline, never a sleep).
final class TwoPartyBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0

    struct TimedOut: Error {}

    func arriveAndWait() throws {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date() + 60
        while arrived < 2 {
            guard condition.wait(until: deadline) else { throw TimedOut() }
        }
    }
}

/// A value shared between threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&stored) } }
}

/// A statement cancelled from another thread (Ctrl-C) fails with 57014 and
/// its transaction leaves nothing.
@Suite(.needsPostgres) struct CancelTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func aCancelFromAnotherThreadStopsTheStatementAndItsTransaction() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8)")
        let canceller = try connection.canceller()
        let pid = Int64(connection.backendPID)
        let uri = database.uri
        let sent = Locked<Bool>(false)
        let watcher = Thread {
            // Wait (up to 60 s) until the backend is inside pg_sleep, then cancel.
            guard let observer = try? PGConnection(uri: uri) else { return }
            let deadline = Date() + 60
            while Date() < deadline {
                let sleeping =
                    (try? observer.scalarInt(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%pg_sleep%'",
                        .integer(pid))) ?? 0
                if sleeping == 1 { sent.withLock { $0 = canceller.cancel() }; return }
            }
        }
        watcher.start()
        let started = Date()
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", .integer(1))
                try connection.run("SELECT pg_sleep($1)", .real(600))
            }
        }
        #expect(sent.value)
        #expect(error?.sqlState == "57014", "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 300, "the sleep was not cut short")
        #expect(!connection.isInTransaction)
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 0)
    }
}
