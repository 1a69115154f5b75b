import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A NOTIFY received on a channel this connection LISTENs to.
public struct PGNotification: Hashable, Sendable {
    public var channel: String
    public var payload: String
    /// The server process that sent it (`pg_backend_pid()` of the sender).
    public var senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

extension PGConnection {
    /// Subscribes this session to `channel` (any text: it is quoted as an
    /// identifier, never interpolated raw). Lost with the session on a reconnect.
    public func listen(_ channel: String) throws {
        try execute("LISTEN " + quotedIdentifier(channel))
    }

    public func unlisten(_ channel: String) throws {
        try execute("UNLISTEN " + quotedIdentifier(channel))
    }

    /// Sends `payload` to every session listening on `channel` (when this
    /// transaction commits, or at once outside one).
    public func notify(_ channel: String, payload: String = "") throws {
        try run("SELECT pg_notify($1, $2)", .text(channel), .text(payload))
    }

    /// Several notifications on `channel` in one statement, so one round
    /// trip and one commit, in `payloads`' order. The payloads travel as one
    /// bound JSON array.
    public func notify(_ channel: String, payloads: [String]) throws {
        guard !payloads.isEmpty else { return }
        let data = try JSONSerialization.data(withJSONObject: payloads, options: [.withoutEscapingSlashes])
        try run(
            "SELECT pg_notify($1, p) FROM json_array_elements_text($2::json) WITH ORDINALITY AS t (p, n) ORDER BY n",
            .text(channel), .text(String(decoding: data, as: UTF8.self)))
    }

    /// The notifications that have arrived, without waiting.
    public func notifications() throws -> [PGNotification] {
        guard PQconsumeInput(handle) == 1 else { throw error(from: nil, sql: nil, arguments: []) }
        var out: [PGNotification] = []
        while let notice = PQnotifies(handle) {
            out.append(
                PGNotification(
                    channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra),
                    senderPID: notice.pointee.be_pid))
            PQfreemem(notice)
        }
        return out
    }

    /// The notifications that have arrived, waiting up to `milliseconds` for
    /// the first when none has (an empty array when none came in time).
    public func waitForNotifications(milliseconds: Int32) throws -> [PGNotification] {
        let ready = try notifications()
        guard ready.isEmpty else { return ready }
        var poller = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poller.fd >= 0 else { throw error(from: nil, sql: nil, arguments: []) }
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let wait = Int32(
                max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let count = poll(&poller, 1, wait)
            if count < 0 && errno != EINTR { throw clientError("poll failed: errno \(errno)", sql: nil, arguments: []) }
            let arrived = try notifications()
            if !arrived.isEmpty { return arrived }
        }
        return []
    }

    /// `name` as a quoted SQL identifier (PQescapeIdentifier).
    public func quotedIdentifier(_ name: String) throws -> String {
        // An identifier cannot hold a NUL; C strings would cut it there.
        let quoted = name.utf8.contains(0) ? nil : name.withCString { PQescapeIdentifier(handle, $0, name.utf8.count) }
        guard let quoted else {
            throw clientError(
                "cannot quote \(PostgresValue.text(name)) as an identifier: "
                    + PGConnection.tidy(String(cString: PQerrorMessage(handle))), sql: nil, arguments: [])
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }
}
