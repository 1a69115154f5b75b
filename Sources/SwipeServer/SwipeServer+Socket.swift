import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import SwipeSession
import SwipeStore

/// One WebSocket: one viewer's deck session.
extension SwipeServer {
    /// Opens the viewer's session, answers each text frame with the session's
    /// JSON line, and logs one line when the socket ends (never the token).
    ///
    /// An error of the socket itself (a message over the size limit, text
    /// that is not UTF-8, a protocol error) is rethrown: the WebSocket
    /// handler closes with its code (1009, 1007, 1002), not 1000.
    func serveSocket(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, request: Request,
        remote: SocketAddress?
    ) async throws {
        let started = ContinuousClock.now
        var commands = 0
        var outcome = "closed by the client"
        guard let token = token(in: request) else {
            try? await outbound.close(.policyViolation, reason: "sign-in expired")
            return
        }
        let grant: AccessGrant
        switch await verify(token) {
        case .success(let verified): grant = verified
        case .failure(.suspended(let reason, let until)):
            try? await outbound.writeTextMessage(Self.suspendedEvent(reason: reason, until: until))
            try? await outbound.close(Self.suspended, reason: Self.closeReason("suspended: " + reason))
            return
        case .failure:
            try? await outbound.close(.policyViolation, reason: "sign-in expired")
            return
        }
        let viewer = grant.viewer
        defer {
            let seconds =
                Double((ContinuousClock.now - started).components.seconds)
                + Double((ContinuousClock.now - started).components.attoseconds) * 1e-18
            logger.info(
                "websocket closed",
                metadata: [
                    "viewer": .string(viewer), "remote": .string(Self.describe(remote)),
                    "commands": .stringConvertible(commands), "seconds": .string(String(format: "%.1f", seconds)),
                    "outcome": .string(outcome),
                ])
        }
        let hub = hub
        let watcher = watcher
        let backend = backend
        let budgets = preferenceChanges
        let logger = logger
        let metrics = metrics
        let session: SocketSession
        let id = hub.reserveID()
        do {
            session = try await threadPool.runIfActive {
                try backend.openSession(
                    viewer: viewer,
                    onEvent: { event in
                        switch event {
                        case .matched(let notice):
                            if watcher.claim(ChangeWatcher.key(notice)) {
                                hub.sendMatch(notice)
                                metrics.pushLag(matchedAt: notice.matchedAt)
                            }
                        case .messageSent(let message, let senderName):
                            let notice = MessageNotice(message: message, senderName: senderName)
                            if watcher.claim(ChangeWatcher.key(message)) {
                                hub.send(notice.json, to: message.recipient)
                                // The sender's other pages; this one has its answer (which
                                // carries the message), so it is not told twice.
                                hub.send(notice.senderJSON, to: message.sender, except: id)
                            }
                        case .blocked(let other):
                            // Both sides' open decks let the card go: the other
                            // person's, and this viewer's other sockets.
                            hub.withdraw(viewer, from: other)
                            hub.withdraw(other, from: viewer)
                            // The blocked person is told nothing more than that
                            // their deck changed (their page then finds the
                            // conversation gone); this viewer's other pages close it.
                            hub.send(ViewerHub.matchEnded(other), to: viewer)
                        case .unmatched(let other):
                            hub.matchEnded(between: viewer, and: other)
                        case .erased(let erasure):
                            // At once, in this process. Every server (this one
                            // included) also sees the count of erasures move and
                            // sweeps its open decks (`sweepErasures`); each match
                            // is told once, whichever comes first.
                            for other in erasure.unmatched {
                                hub.forgetPartner(erasure.viewer, of: other)
                                if watcher.claim(Self.erasureKey(erasure.viewer, toldTo: other)) {
                                    hub.send(Self.unmatched(erasure.viewer), to: other)
                                }
                                hub.withdraw(erasure.viewer, from: other)
                            }
                        }
                    },
                    mayChangePreferences: { budgets.spend(viewer) },
                    internalFailure: { error in Self.neutralFailure(error, viewer: viewer, logger: logger) })
            }
        } catch {
            outcome = "could not open the session: \(error)"
            try? await outbound.close(.unexpectedServerError, reason: "the store could not be opened")
            return
        }
        guard
            hub.add(
                outbound, session: session, token: token, for: viewer, id: id,
                limit: configuration.socketsPerViewer)
        else {
            outcome = "refused: too many sockets for this viewer"
            try? await outbound.close(
                Self.tooManySockets,
                reason: "too many sockets for this viewer (\(configuration.socketsPerViewer))")
            return
        }
        metrics.socketsOpen(hub.count)
        defer {
            hub.remove(id, for: viewer)
            metrics.socketsOpen(hub.count)
            // The deck's last writes (its impressions), on the thread pool,
            // without holding up the socket's end.
            let threadPool = threadPool
            Task { try? await threadPool.runIfActive { session.close() } }
        }
        let sharedCommands = commandBudgets
        var counted = metrics.socketCounters()
        do {
            // On SIGINT/SIGTERM the WebSocket handler itself closes every
            // socket (1000), which ends this loop.
            try await outbound.writeTextMessage(
                Self.hello(grant, name: session.viewerName, moderator: session.isModerator, warnings: session.warnings))
            for try await message in inbound.messages(maxSize: configuration.maxFrameSize) {
                guard case .text(let text) = message else {
                    outcome = "refused a binary message"
                    try await outbound.close(.unacceptableData, reason: "text frames only: one command each")
                    return
                }
                guard sharedCommands.spend(viewer) else {
                    outcome = "refused a flood of commands"
                    try await outbound.close(.policyViolation, reason: "too many commands")
                    return
                }
                // What will not reach the store (`drag`, pure deck arithmetic
                // of about 40 µs; a release that springs back; a line that
                // does not parse) runs here; everything else runs on the
                // thread pool. Either way one command at a time.
                let line = ReplLine(text)
                let verb = session.verb(of: line)
                let answer: SocketAnswer
                if session.runsInline(line) {
                    answer = session.answer(line)
                } else {
                    let asked = ContinuousClock.now
                    answer = try await threadPool.runIfActive { session.answer(line) }
                    counted.storeLatency(verb, ContinuousClock.now - asked)
                }
                commands += 1
                counted.command(verb, ok: answer.ok)
                if let decision = answer.decision { counted.decision(decision, matched: answer.matched) }
                try await outbound.writeTextMessage(answer.text)
                if case .moderate(let command)? = line.input, command.suspends != nil, answer.ok {
                    // The suspended person's open sockets close now (4003), on every server soon.
                    Task { await self.checkSignIns() }
                }
                if case .me(.set)? = line.input {
                    // The viewer's other pages show the profile too: they ask again.
                    hub.send(Self.meChanged, to: viewer, except: id)
                }
                if session.isFinished {
                    // `me erase`: the viewer is gone; so are their sockets.
                    outcome = "erased"
                    hub.closeAll(of: viewer, except: id)
                    try await outbound.close(.normalClosure, reason: "erased")
                    return
                }
            }
        } catch {
            outcome = Self.describe(error)
            throw error
        }
    }

    /// `{"event":"me-changed"}`: the viewer's profile changed in another of their sockets.
    static let meChanged = #"{"event":"me-changed"}"#

    /// `{"event":"unmatched","profile":ID}`: that match ended because they erased themself.
    static func unmatched(_ profile: String) -> String {
        JSONValue.object([("event", "unmatched"), ("profile", .string(profile)), ("reason", "erased")]).serialized
    }

    /// A viewer's socket past `socketsPerViewer`.
    static let tooManySockets = WebSocketErrorCode(codeNumber: 4029)

    /// What a client is told of a failure of the store (SQL, connections,
    /// files): a neutral line and an id; the log gets the detail under that
    /// id. Hosts, ports, roles, databases and SQL stay on the server.
    static func neutralFailure(_ error: any Error, viewer: String, logger: Logger) -> String {
        let id = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        logger.error(
            "store failure",
            metadata: [
                "failure": .string(id), "viewer": .string(viewer), "error": .string(String(describing: error)),
            ])
        return "something went wrong on the server (failure \(id)); try again"
    }

    /// The first frame on a socket: the protocol's version (`v`: 1; a frame
    /// is a line of words or a command object, Documentation/REPL.md), who
    /// it acts as (id and name), and until when.
    static func hello(
        _ grant: AccessGrant, name: String? = nil, moderator: Bool = false, warnings: [ModeratorWarning] = []
    ) -> String {
        JSONValue.object([
            ("event", "hello"), ("v", .number(1)), ("viewer", .string(grant.viewer)), ("name", .optional(name)),
            ("expires", .string(ISO8601DateFormatter().string(from: grant.expiry))),
            ("moderator", .bool(moderator)),
            (
                "warnings",
                .array(
                    warnings.map {
                        .object([("reason", .string($0.reason)), ("warned_at", .string($0.warnedAt))])
                    })
            ),
        ]).serialized
    }

    /// What a socket is closed with when its viewer is suspended
    /// (Documentation/Moderation.md), after `suspendedEvent` told the page why.
    static let suspended = WebSocketErrorCode(codeNumber: 4003)

    /// `{"event":"suspended","reason":…,"until":…}`: the whole reason, which
    /// a close frame (123 bytes) may not hold.
    static func suspendedEvent(reason: String, until: String?) -> String {
        JSONValue.object([("event", "suspended"), ("reason", .string(reason)), ("until", .optional(until))])
            .serialized
    }

    /// `text` cut to a close frame's 123 bytes of UTF-8, on a character boundary.
    static func closeReason(_ text: String) -> String {
        var result = ""
        for character in text {
            if result.utf8.count + String(character).utf8.count > 120 { return result + "…" }
            result.append(character)
        }
        return result
    }

    /// A socket's end, for the log line.
    static func describe(_ error: any Error) -> String {
        "ended: \(error)"
    }
}
