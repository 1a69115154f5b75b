import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection, synchronous like the SQLite layer: statements are
/// prepared once per session and cached by their SQL text; parameters are
/// bound ($1, $2, …), never interpolated.
///
/// `PGConnection(uri:)` takes a `postgres://` or `postgresql://` URI (any
/// libpq URI: several hosts, `?sslmode=`, `?passfile=` …). Passwords come the
/// libpq way: `PGPASSWORD`, `~/.pgpass` (or `passfile`), or, discouraged, the
/// URI itself; nothing this type prints or throws shows that password.
///
/// A connection is used from one thread at a time (it is not `Sendable`).
public final class PGConnection: CustomStringConvertible {
    private(set) var handle: OpaquePointer
    /// The user, host, port and database actually connected to.
    public private(set) var endpoint: PostgresEndpoint
    /// The URI with any password masked: safe to print.
    public let redactedURI: String
    /// Password texts from the URI, scrubbed from every message (libpq's
    /// messages never contain one today, this is for the day one does).
    private let secrets: [String]
    private let notices = NoticeLog()
    private var cache: [String: PGStatement] = [:]
    private var statementCounter = 0
    /// Bumped by `reconnect()`: statements prepared in an older session
    /// prepare themselves again before their next use.
    private(set) var session = 0
    /// A BEGIN to send with the next statement (`PGConnection+Pipeline.swift`).
    var deferredBegin: String?
    /// A read to send in the next write's flight, and its answer (`PGConnection+ReadAhead.swift`).
    var readAhead: ReadAhead?
    var readAheadAnswer: ReadAheadAnswer?
    /// Read-ahead answers taken: what tests count to know the read rode with a write.
    @_spi(Testing) public internal(set) var readAheadAnswersTaken = 0

    /// Connects to `uri`, waiting at most `connectTimeoutSeconds` for a server
    /// that does not answer (a `connect_timeout` in the URI wins).
    ///
    /// Throws `.unreachable` when no server answered at the host and port,
    /// `.rejected` when one answered and refused, `.client` for a string that
    /// is not a PostgreSQL URI.
    public init(uri: String, connectTimeoutSeconds: Int = 10) throws {
        let redactedURI = PostgresURI.redacted(uri)
        let secrets = PostgresURI.secrets(in: uri)
        guard PostgresURI.isPostgres(uri) else {
            throw PostgresError(
                kind: .client, message: "not a PostgreSQL URI (postgres://… or postgresql://…): \(redactedURI)")
        }
        // libpq reads C strings: a NUL would silently cut the URI short.
        guard !uri.utf8.contains(0) else {
            throw PostgresError(kind: .client, message: "a PostgreSQL URI cannot hold a NUL character: \(redactedURI)")
        }
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(uri, &parseError) {
            PQconninfoFree(options)
        } else {
            let message = parseError.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(parseError)
            throw PostgresError(
                kind: .client,
                message:
                    "not a valid PostgreSQL URI: \(redactedURI): \(PostgresURI.scrub(Self.tidy(message), secrets: secrets))"
            )
        }
        // Later entries win over earlier ones, and the URI's own keywords win
        // over ours (it comes last, expanded in place).
        let keywords = ["connect_timeout", "client_encoding", "fallback_application_name", "dbname"]
        let values = [String(connectTimeoutSeconds), "UTF8", "swipe", uri]
        guard let handle = withCStrings(keywords, { k in withCStrings(values, { v in PQconnectdbParams(k, v, 1) }) })
        else {
            throw PostgresError(kind: .client, message: "libpq could not allocate a connection (out of memory)")
        }
        let endpoint = Self.endpoint(of: handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            // Finished here, before `self` exists: deinit never sees this handle.
            let message = Self.tidy(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw PostgresError(
                kind: Self.connectFailureKind(message), message: PostgresURI.scrub(message, secrets: secrets),
                endpoint: endpoint)
        }
        self.handle = handle
        self.endpoint = endpoint
        self.redactedURI = redactedURI
        self.secrets = secrets
        installNoticeProcessor()
    }

    deinit {
        cache.removeAll()
        PQfinish(handle)
    }

    public var description: String { "PGConnection(\(endpoint))" }

    /// The statement prepared from `sql`, when this connection has it (never prepares).
    func cachedStatement(_ sql: String) -> PGStatement? { cache[sql] }

    /// Opens a new session on the same endpoint after `.connectionLost` (or
    /// at any time). Prepared statements prepare themselves again on their
    /// next use; LISTEN registrations and session settings are gone.
    public func reconnect() throws {
        deferredBegin = nil
        dropReadAhead()
        PQreset(handle)
        session += 1
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.tidy(String(cString: PQerrorMessage(handle)))
            throw PostgresError(
                kind: Self.connectFailureKind(message), message: PostgresURI.scrub(message, secrets: secrets),
                endpoint: endpoint)
        }
        endpoint = Self.endpoint(of: handle)
        installNoticeProcessor()
    }

    /// Whether libpq still considers the connection usable. A broken one is
    /// noticed only when it is next used: this reports what that use found.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (idle in it, or failed and awaiting ROLLBACK).
    public var isInTransaction: Bool {
        if deferredBegin != nil { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server process serving this session (`pg_backend_pid()`).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// The server's NOTICE and WARNING messages, newest last (at most 20):
    /// libpq would print them on stderr, which belongs to the program.
    public var recentNotices: [String] { notices.messages }

    /// Runs one or more statements that take no arguments (schema text,
    /// BEGIN, SET …) with the simple query protocol.
    public func execute(_ sql: String) throws {
        // A read ahead's answer outlives only its own write's COMMIT (`PGConnection+ReadAhead.swift`).
        if sql != "COMMIT" { dropReadAheadAnswer() }
        if let begin = takeDeferredBegin() {
            // Nothing ran since BEGIN: ending the transaction is ending nothing.
            if sql == "COMMIT" || sql == "ROLLBACK" { return }
            try execute(begin)
        }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql, arguments: [])
    }

    /// The cached prepared statement for `sql`, preparing it on first use.
    public func statement(_ sql: String) throws -> PGStatement {
        if let cached = cache[sql] { return cached }
        let statement = try PGStatement(connection: self, sql: sql, name: nextStatementName())
        cache[sql] = statement
        return statement
    }

    /// A server-side name no statement of this connection has used.
    func nextStatementName() -> String {
        statementCounter += 1
        return "swipe_\(statementCounter)"
    }

    /// Runs `sql` with `arguments` and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ arguments: PostgresValue...) throws -> PGResult {
        try statement(sql).query(arguments)
    }

    /// Runs `sql` with `arguments` and returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ arguments: PostgresValue...) throws -> Int {
        try statement(sql).run(arguments)
    }

    /// The first column of the first row as an integer, or nil when there is
    /// no row or the value is NULL.
    public func scalarInt(_ sql: String, _ arguments: PostgresValue...) throws -> Int? {
        try statement(sql).first(arguments) { try $0.isNull(0) ? nil : $0.int(0) } ?? nil
    }

    /// The first column of the first row as text, or nil when there is no
    /// row or the value is NULL.
    public func scalarText(_ sql: String, _ arguments: PostgresValue...) throws -> String? {
        try statement(sql).first(arguments) { try $0.optionalText(0) } ?? nil
    }

    // MARK: - Errors

    /// Throws the error `result` carries, if any: `.connectionLost` when the
    /// connection is broken afterwards, else the server's error. A COPY
    /// started outside `copy(_:_:)` is ended here (the connection would
    /// otherwise stay in COPY mode) and refused.
    func check(_ result: OpaquePointer?, sql: String?, arguments: [PostgresValue]) throws {
        if let result {
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
                return
            }
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
                abandonCopy()
                throw clientError("COPY … FROM STDIN runs through copy(_:_:) only", sql: sql, arguments: arguments)
            }
        }
        throw error(from: result, sql: sql, arguments: arguments)
    }

    /// Ends a COPY the server has started: an input one is aborted, an
    /// output one read to its end and dropped; then the connection is idle.
    func abandonCopy() {
        _ = PQputCopyEnd(handle, "not a COPY FROM STDIN run through copy(_:_:)")
        var buffer: UnsafeMutablePointer<CChar>?
        while PQgetCopyData(handle, &buffer, 0) > 0 {
            PQfreemem(buffer)
            buffer = nil
        }
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    /// The error `result` (or, without one, the connection) reports.
    func error(from result: OpaquePointer?, sql: String?, arguments: [PostgresValue]) -> PostgresError {
        func field(_ code: UInt8) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code)) else { return nil }
            return PostgresURI.scrub(Self.tidy(String(cString: value)), secrets: secrets)
        }
        let primary =
            field(UInt8(ascii: "M"))
            ?? PostgresURI.scrub(Self.tidy(String(cString: PQerrorMessage(handle))), secrets: secrets)
        let lost = PQstatus(handle) == CONNECTION_BAD
        return PostgresError(
            kind: lost ? .connectionLost : .server,
            message: primary.isEmpty ? "no answer from the server" : primary,
            sqlState: field(UInt8(ascii: "C")), detail: field(UInt8(ascii: "D")), hint: field(UInt8(ascii: "H")),
            context: field(UInt8(ascii: "W")), constraint: field(UInt8(ascii: "n")),
            sql: sql, arguments: arguments, endpoint: endpoint)
    }

    /// A refusal here, before anything is sent.
    func clientError(_ message: String, sql: String?, arguments: [PostgresValue]) -> PostgresError {
        PostgresError(kind: .client, message: message, sql: sql, arguments: arguments, endpoint: endpoint)
    }

    /// A server that answered leaves a FATAL message (or an authentication
    /// complaint) in libpq's text; anything else never got that far.
    private static func connectFailureKind(_ message: String) -> PostgresError.Kind {
        let answered = ["FATAL:", "fe_sendauth", "authentication", "SSL error", "server does not support SSL"]
        return answered.contains { message.contains($0) } ? .rejected : .unreachable
    }

    /// libpq ends messages with a newline and indents continuation lines:
    /// one line reads better inside another message.
    static func tidy(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.drop { $0 == " " || $0 == "\t" } }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func endpoint(of handle: OpaquePointer) -> PostgresEndpoint {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        return PostgresEndpoint(
            host: text(PQhost(handle)), port: text(PQport(handle)), database: text(PQdb(handle)),
            user: text(PQuser(handle)))
    }

    private func installNoticeProcessor() {
        PQsetNoticeProcessor(
            handle,
            { context, message in
                guard let context, let message else { return }
                Unmanaged<NoticeLog>.fromOpaque(context).takeUnretainedValue()
                    .append(PGConnection.tidy(String(cString: message)))
            }, Unmanaged.passUnretained(notices).toOpaque())
    }
}

/// Where libpq's notice processor puts NOTICE and WARNING messages.
private final class NoticeLog {
    private(set) var messages: [String] = []
    func append(_ message: String) {
        messages.append(message)
        if messages.count > 20 { messages.removeFirst(messages.count - 20) }
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
}
