import Foundation
import Logging
import SwipeStore

/// Matches pushed between `swipe serve` processes that share one PostgreSQL
/// database, with LISTEN/NOTIFY on the channel `swipe_match`: each process
/// NOTIFYs the matches its sessions make and LISTENs, on a connection and a
/// thread of its own, for the others'.
///
/// The payload is JSON: `{"origin":…,"recipient":…,"liker":…,"name":…,"matched_at":…}`;
/// `origin` is this relay's random id, so a process skips its own. A
/// listening connection that breaks is reopened (a second later, then
/// every second); once it listens again, the matches made since it was
/// last heard (less a margin for clocks and late notifications) are read
/// from the database and pushed, each match once: a relay remembers the
/// matches it has published or pushed.
public final class PostgresMatchRelay: MatchRelay, @unchecked Sendable {
    public static let channel = "swipe_match"
    /// NOTIFY refuses payloads of 8000 bytes or more.
    static let payloadLimit = 7999
    /// How far before the last moment the listener was heard a catch-up
    /// reads: notifications still on their way then, and serve processes
    /// whose clocks run behind this one's.
    static let catchUpMargin: TimeInterval = 30

    let uri: String
    let origin = UUID().uuidString
    private let logger: Logger
    /// Guards everything below; broadcast when the listener or the publisher ends.
    private let lock = NSCondition()
    private var publisher: PGConnection?
    private var running = false
    private var listenerDone = true
    /// Payloads waiting for the publishing thread, which runs while there are any.
    private var outbox: [String] = []
    private var publishing = false
    /// Matches published or pushed here, so none is pushed twice.
    private var seen = RecentKeys(capacity: 10_000)
    private var listenerPID: Int32?

    /// The server process of the listening connection, while there is one (tests end it).
    var listeningBackendPID: Int32? { lock.withLock { listenerPID } }

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
            listenerPID = connection.backendPID
        }
        let listening = Listening(connection)
        let thread = Thread { [self] in self.listen(listening.connection, deliver: deliver) }
        thread.name = "swipe-match-relay"
        thread.start()
    }

    /// Stops listening, and returns once the matches published so far are sent (or given up).
    public func stop() {
        lock.withLock {
            running = false
            while !listenerDone || publishing { lock.wait() }
            publisher = nil
        }
    }

    /// Queues the notice for a thread of the relay's own and returns: the
    /// like that made the match has its answer without waiting for NOTIFY's
    /// round trip (nor for the commit order NOTIFY imposes on the server).
    /// Notices queued together go in one statement.
    public func publish(_ notice: MatchNotice) {
        guard let payload = payload(notice) else { return }
        let startThread: Bool = lock.withLock {
            _ = seen.insert(Self.key(notice))
            outbox.append(payload)
            guard !publishing else { return false }
            publishing = true
            return true
        }
        guard startThread else { return }
        let thread = Thread { [self] in self.sendOutbox() }
        thread.name = "swipe-match-publisher"
        thread.start()
    }

    /// Sends what the outbox holds until it is empty, then ends. A batch that
    /// fails twice (with a new connection the second time) is given up:
    /// those matches are still in each viewer's `matches` list.
    private func sendOutbox() {
        while true {
            let batch: [String] = lock.withLock {
                let batch = outbox
                outbox = []
                if batch.isEmpty {
                    publishing = false
                    lock.broadcast()
                }
                return batch
            }
            guard !batch.isEmpty else { return }
            let connection = lock.withLock { publisher }
            var current = connection
            for attempt in 0..<2 {
                do {
                    if current == nil { current = try PGConnection(uri: uri) }
                    try current?.notify(Self.channel, payloads: batch)
                    break
                } catch {
                    current = nil
                    if attempt == 1 {
                        logger.warning("could not relay \(batch.count) match(es) to other serve processes: \(error)")
                    }
                }
            }
            lock.withLock { publisher = current }
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func listen(_ first: PGConnection, deliver: @Sendable (MatchNotice) -> Void) {
        var connection: PGConnection? = first
        // Every match made before this moment (less the margin) has been notified to a live listener.
        var lastHeard = Date()
        defer {
            lock.withLock {
                listenerDone = true
                listenerPID = nil
                lock.broadcast()
            }
        }
        while isRunning {
            do {
                if connection == nil {
                    let fresh = try PGConnection(uri: uri)
                    try fresh.listen(Self.channel)
                    // Listening first: a match committed during the catch-up is notified too (and pushed once).
                    let since = Timestamp.string(from: lastHeard.addingTimeInterval(-Self.catchUpMargin))
                    var pushed = 0
                    for made in try PostgresMatchLog.made(since: since, on: fresh) {
                        let notice = MatchNotice(
                            recipient: made.recipient, liker: made.liker, likerName: made.likerName,
                            matchedAt: made.matchedAt)
                        if firstTime(notice) {
                            deliver(notice)
                            pushed += 1
                        }
                    }
                    connection = fresh
                    lock.withLock { listenerPID = fresh.backendPID }
                    logger.info("match relay listening again", metadata: ["missed matches pushed": "\(pushed)"])
                }
                // A short wait, so that `stop` is noticed soon.
                let arrived = try connection!.waitForNotifications(milliseconds: 200)
                lastHeard = Date()
                for notification in arrived {
                    if let notice = decode(notification.payload), firstTime(notice) { deliver(notice) }
                }
            } catch {
                if connection != nil { logger.warning("match relay lost its connection: \(error)") }
                connection = nil
                lock.withLock {
                    listenerPID = nil
                    _ = lock.wait(until: Date().addingTimeInterval(1))
                }
            }
        }
    }

    /// Whether `notice` is news here (neither published nor pushed before).
    private func firstTime(_ notice: MatchNotice) -> Bool {
        lock.withLock { seen.insert(Self.key(notice)) }
    }

    /// A match's identity: the pair, either way round, and its moment.
    static func key(_ notice: MatchNotice) -> String {
        let pair = [notice.recipient, notice.liker].sorted()
        return "\(pair[0])\u{0}\(pair[1])\u{0}\(notice.matchedAt)"
    }

    /// The notice as NOTIFY's payload; without the name when it would be too long.
    func payload(_ notice: MatchNotice) -> String? {
        func encode(_ name: String?) -> String? {
            var object: [String: String] = [
                "origin": origin, "recipient": notice.recipient, "liker": notice.liker, "matched_at": notice.matchedAt,
            ]
            object["name"] = name
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                return nil
            }
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
        return MatchNotice(
            recipient: recipient, liker: liker, likerName: object["name"] as? String, matchedAt: matchedAt)
    }
}

/// Hands the first listening connection to the relay's thread.
private final class Listening: @unchecked Sendable {
    let connection: PGConnection
    init(_ connection: PGConnection) { self.connection = connection }
}
