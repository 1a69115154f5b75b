import Foundation
import Logging
import SwipePostgres

/// Matches pushed between `swipe serve` processes that share one PostgreSQL
/// database, with LISTEN/NOTIFY on the channel `swipe_match`: each process
/// NOTIFYs the matches its sessions make and LISTENs, on a connection and a
/// thread of its own, for the others'.
///
/// The payload is JSON: `{"origin":…,"recipient":…,"liker":…,"name":…,"matched_at":…}`;
/// `origin` is this relay's random id, so a process skips its own. A
/// listening connection that breaks is reopened (a second later, then
/// every second); matches notified meanwhile are not pushed, but they are
/// in the other viewer's `matches` list as ever.
public final class PostgresMatchRelay: MatchRelay, @unchecked Sendable {
    public static let channel = "swipe_match"
    /// NOTIFY refuses payloads of 8000 bytes or more.
    static let payloadLimit = 7999

    let uri: String
    let origin = UUID().uuidString
    private let logger: Logger
    /// Guards `publisher`, `running` and `listener`.
    private let lock = NSCondition()
    private var publisher: PGConnection?
    private var running = false
    private var listenerDone = true

    /// `uri` names the database the serve process uses (the password the libpq way).
    public init(uri: String, logger: Logger = Logger(label: "swipe.serve")) {
        self.uri = uri
        self.logger = logger
    }

    /// Connects and LISTENs before returning (a match published by another
    /// process after this returns is delivered), then listens on a thread.
    public func start(deliver: @escaping @Sendable (MatchNotice) -> Void) throws {
        let connection = try PGConnection(uri: uri)
        try connection.listen(Self.channel)
        lock.withLock {
            running = true
            listenerDone = false
        }
        let listening = Listening(connection)
        let thread = Thread { [self] in self.listen(listening.connection, deliver: deliver) }
        thread.name = "swipe-match-relay"
        thread.start()
    }

    public func stop() {
        lock.withLock {
            running = false
            while !listenerDone { lock.wait() }
            publisher = nil
        }
    }

    public func publish(_ notice: MatchNotice) {
        guard let payload = payload(notice) else { return }
        lock.withLock {
            for attempt in 0..<2 {
                do {
                    if publisher == nil { publisher = try PGConnection(uri: uri) }
                    try publisher?.notify(Self.channel, payload: payload)
                    return
                } catch {
                    publisher = nil
                    if attempt == 1 {
                        logger.warning("could not relay a match to other serve processes: \(error)")
                    }
                }
            }
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func listen(_ first: PGConnection, deliver: @Sendable (MatchNotice) -> Void) {
        var connection: PGConnection? = first
        defer {
            lock.withLock {
                listenerDone = true
                lock.broadcast()
            }
        }
        while isRunning {
            do {
                if connection == nil {
                    let fresh = try PGConnection(uri: uri)
                    try fresh.listen(Self.channel)
                    connection = fresh
                    logger.info("match relay listening again")
                }
                // A short wait, so that `stop` is noticed soon.
                for notification in try connection!.waitForNotifications(milliseconds: 200) {
                    if let notice = decode(notification.payload) { deliver(notice) }
                }
            } catch {
                if connection != nil { logger.warning("match relay lost its connection: \(error)") }
                connection = nil
                lock.withLock { _ = lock.wait(until: Date().addingTimeInterval(1)) }
            }
        }
    }

    /// The notice as NOTIFY's payload; without the name when it would be too long.
    func payload(_ notice: MatchNotice) -> String? {
        func encode(_ name: String?) -> String? {
            var object: [String: String] = [
                "origin": origin, "recipient": notice.recipient, "liker": notice.liker, "matched_at": notice.matchedAt,
            ]
            object["name"] = name
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            return text.utf8.count <= Self.payloadLimit ? text : nil
        }
        return encode(notice.likerName) ?? encode(nil)
    }

    /// A payload from another process, or nil for this one's own (and for
    /// anything that is not a relay's payload).
    func decode(_ payload: String) -> MatchNotice? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
              let origin = object["origin"] as? String, origin != self.origin,
              let recipient = object["recipient"] as? String, let liker = object["liker"] as? String,
              let matchedAt = object["matched_at"] as? String
        else { return nil }
        return MatchNotice(recipient: recipient, liker: liker, likerName: object["name"] as? String, matchedAt: matchedAt)
    }
}

/// Hands the first listening connection to the relay's thread.
private final class Listening: @unchecked Sendable {
    let connection: PGConnection
    init(_ connection: PGConnection) { self.connection = connection }
}
