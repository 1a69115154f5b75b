import Foundation
import SwipeCore
import SwipeStore

/// The swipe database on a PostgreSQL server: the same contract as the SQLite
/// store (`SwipeDatabase`), over one synchronous `PGConnection`.
/// The rules are SwipeStore's, written once for both backends (`SQLDatabase`);
/// this type brings the connection and how it writes (`write`), and its
/// extensions what only PostgreSQL does: `+Profiles` (the one-statement
/// upsert, streamed reads), `+Discovery` (the feed), `+Import` (COPY),
/// `+Locks` (the viewer and pair locks the rules take).
///
/// Where SQLite serialises every writer, here any number of processes write
/// at once: each write is one READ COMMITTED transaction that first takes the
/// locks it needs (`PGConnection+Locks.swift` says which and why), so the
/// checks it makes afterwards see every write that could change their answer.
///
/// Faults (README "PostgreSQL"): a lost connection fails the call that found
/// it (`PostgresError.connectionLost`); the next call reconnects once. A
/// write whose COMMIT lost its answer is looked up by transaction id before
/// anything else happens: committed is success, aborted runs it again once.
public final class PostgresStore: SwipeDatabase {
    /// How durable a commit is before it is acknowledged (`--sync`).
    public enum Synchronous: String, Sendable, CaseIterable {
        /// Survives a crash of swipe: `synchronous_commit = on` (the server
        /// owns durability; an acknowledged commit is in its WAL on disk).
        case normal
        /// Also survives losing the server's machine when it has synchronous
        /// standbys: `synchronous_commit = remote_apply` (on a server without
        /// standbys PostgreSQL treats it as `on`).
        case full

        var setting: String {
            switch self {
            case .normal: "on"
            case .full: "remote_apply"
            }
        }
    }

    /// The connection, for tests and tools that need raw SQL.
    public let connection: PGConnection
    /// The URI without its password: what messages name.
    public let location: String
    /// Opening never makes a file: nothing to undo (a first import brings
    /// the schema inside its own transaction, so a failed one leaves none).
    public var creation: DatabaseCreation? { nil }
    let readOnly: Bool
    let synchronous: Synchronous
    /// Opened with `create` on an empty database: the schema is still to be
    /// applied, by the first import in its own transaction (all or nothing),
    /// or before any other call in a transaction of its own.
    var pendingSchema = false
    /// Whether decisions go through the server-side function `swipe_decide_2`
    /// (`PostgresStore+Decide.swift`): true once the database holds it.
    var decidesOnServer = false
    /// Whether message sends go through `swipe_send_2` (`PostgresStore+Send.swift`).
    var sendsOnServer = false
    /// Whether undos go through `swipe_undo_1` (`PostgresStore+Undo.swift`).
    var undoesOnServer = false
    /// The id of the open write transaction when its body learned it (the
    /// decision and send functions return it), saving `write` a round trip.
    var knownTransactionID: Int64?

    /// Sends answered by `swipe_send_2`, and those it handed back to the
    /// Swift steps (`ask`): what tests count to know which path ran.
    @_spi(Testing) public internal(set) var sendsAnsweredOnServer = 0
    @_spi(Testing) public internal(set) var sendsHandedBack = 0
    /// Undos answered by `swipe_undo_1`: what tests count to know which path ran.
    @_spi(Testing) public internal(set) var undosAnsweredOnServer = 0

    /// Runs in place of COMMIT, for tests that break the connection around it.
    @_spi(Testing) public var commitStep: ((PGConnection) throws -> Void)?

    /// Connects to `uri` and identifies the database (`PostgresSchema.identify`).
    ///
    /// With `create` (`swipe import`) an empty database (nothing in its
    /// current schema) gets `schema.postgres.sql` in one transaction; without
    /// it, an empty database is `DatabaseOpenError.missing`, as a missing file is on
    /// SQLite. A newer swipe schema is `.newerSchema`, anything else that is
    /// not swipe's `.notSwipeDatabase`; each names the URI without password.
    /// With `readOnly` every transaction of the session is read-only.
    ///
    /// - Throws: `StoreError`, or `PostgresError` (`.unreachable` names the
    ///   host and port, never the password).
    public init(uri: String, create: Bool = true, readOnly: Bool = false, synchronous: Synchronous = .normal) throws {
        let location = PostgresURI.redacted(uri)
        connection = try PGConnection(uri: uri)
        self.location = location
        self.readOnly = readOnly
        self.synchronous = synchronous
        let (identity, installed) = try PostgresSchema.identify(connection, location: location)
        switch identity {
        case .swipe:
            break
        case .older(let found):
            guard !readOnly else {
                throw DatabaseOpenError.olderSchema(path: location, found: found, supported: PostgresSchema.version)
            }
            try PostgresSchema.migrate(connection)
        case .empty:
            guard create && !readOnly else { throw DatabaseOpenError.missing(path: location) }
            pendingSchema = true
        }
        if !readOnly && !pendingSchema { try installFunctions(installed: installed) }
        try configureSession()
    }

    /// Adds the server-side functions where missing and notes which calls
    /// may use them. `installed`: what the database held when identified.
    private func installFunctions(installed: PostgresSchema.InstalledFunctions? = nil) throws {
        let functions = try PostgresSchema.installFunctions(connection, installed: installed)
        decidesOnServer = functions.decide
        sendsOnServer = functions.send
        undoesOnServer = functions.undo
    }

    /// Session settings, again after every reconnect.
    private func configureSession() throws {
        try connection.execute("SET synchronous_commit = \(synchronous.setting)")
        if readOnly { try connection.execute("SET default_transaction_read_only = on") }
    }

    // MARK: - Sessions and transactions

    /// Runs `body` on a live session with swipe's schema in place.
    func session<T>(_ body: () throws -> T) throws -> T {
        try liveSession {
            if pendingSchema {
                _ = try PostgresSchema.create(connection, location: location)
                pendingSchema = false
                try installFunctions()
            }
            return try body()
        }
    }

    /// Runs `body` on a live session: a connection lost by an earlier call is
    /// reopened first, once (a failure to reconnect is this call's error).
    func liveSession<T>(_ body: () throws -> T) throws -> T {
        if !connection.isConnected {
            try connection.reconnect()
            try configureSession()
        }
        return try body()
    }

    /// Runs `body` in one READ COMMITTED write transaction on a live session.
    ///
    /// A deadlock or serialization failure runs it again (PostgreSQL's
    /// documented remedy). When the connection is lost after the body ran,
    /// during COMMIT, the outcome is unknown: the transaction's id, taken
    /// before COMMIT, is looked up from a new session. Committed: the result
    /// stands, nothing is done twice. Aborted: the body runs again, once, on
    /// the new session. Lost before that point: nothing was committed, and
    /// the call fails saying the connection was lost.
    public func write<T>(_ body: () throws -> T) throws -> T {
        try session {
            var attempt = 1
            var rerunAfterLoss = false
            while true {
                var produced: T?
                var transactionID: Int64?
                knownTransactionID = nil
                do {
                    // Sent with the body's first statement, in one round trip.
                    connection.beginWithNextStatement("BEGIN ISOLATION LEVEL READ COMMITTED")
                    let result = try body()
                    produced = result
                    transactionID = try knownTransactionID ?? connection.currentTransactionID()
                    if let commitStep { try commitStep(connection) } else { try connection.execute("COMMIT") }
                    return result
                } catch let error as PostgresError where error.isConnectionLost {
                    guard let transactionID, let produced, !rerunAfterLoss else { throw error }
                    try connection.reconnect()
                    try configureSession()
                    switch try settledStatus(of: transactionID) {
                    case .committed:
                        return produced
                    case .aborted:
                        rerunAfterLoss = true
                    case .inProgress, .unknown:
                        throw error
                    }
                } catch let error as PostgresError where error.isRetryableTransactionFailure && attempt < 10 {
                    rollback()
                    attempt += 1
                    usleep(UInt32.random(in: 0...UInt32(min(1 << attempt, 64))) * 1000)
                } catch {
                    rollback()
                    throw error
                }
            }
        }
    }

    /// The outcome of transaction `id`, waiting (up to 10 s) while the server
    /// still finishes a backend whose connection died.
    private func settledStatus(of id: Int64) throws -> PGConnection.TransactionStatus {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let status = try connection.transactionStatus(id)
            if status != .inProgress || Date() > deadline { return status }
            usleep(10_000)
        }
    }

    /// Ends a write that did not commit; a read that rode with it saw what is rolled back.
    private func rollback() {
        connection.dropReadAhead()
        if connection.isConnected && connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }
}

/// The rules (SwipeStore's `SQLDatabase` extensions) run on this store's
/// connection: a write is `write` (READ COMMITTED, retried on a deadlock or
/// serialization failure, looked up after a lost COMMIT), a read `session`.
extension PostgresStore: SQLDatabase {
    public var executor: PGConnection { connection }

    public func read<T>(_ body: () throws -> T) throws -> T { try session(body) }
}
