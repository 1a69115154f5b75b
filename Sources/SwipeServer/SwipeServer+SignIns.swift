import Foundation
import Logging
import NIOWebSocket
import ServiceLifecycle

extension SwipeServer {
    /// What a socket is closed with when its sign-in ends while it is open
    /// (expired, revoked with `swipe link --revoke`, the secret replaced or
    /// deleted, the page's logout): the page then shows how to sign in.
    static let signedOut = WebSocketErrorCode(codeNumber: 4001)

    /// Reads the secret again and checks every open socket's token as a new
    /// request's would be: a socket whose viewer is suspended is closed with
    /// 4003 and the reason (Documentation/Moderation.md), one whose token no
    /// longer signs in with 4001, "signed out". Returns how many were closed.
    @discardableResult
    func checkSignIns() async -> Int {
        let backend = backend
        if let secret = try? await threadPool.runIfActive({ try backend.reading { try $0.accessSecret(create: false) } }
        ) {
            signIns.update(secret: secret)
        }
        let open = hub.byViewer
        guard !open.isEmpty else { return 0 }
        // Every open socket's viewer read at once (one statement per 100
        // viewers). A store that cannot answer now closes nobody: the next
        // check asks again.
        guard
            let states = try? await threadPool.runIfActive({
                try backend.reading { try $0.signInStates(of: open.map(\.viewer), at: nil) }
            })
        else { return 0 }
        let tokens = signIns.tokens
        var closed = 0
        for (viewer, socket) in open {
            // A suspension is told as one (4003, with its reason), before the
            // token, which the ban's new sign-in generation has voided too.
            if let suspension = states[viewer]?.suspension {
                closed += 1
                logger.info("closed an open socket: its viewer is suspended")
                let writer = socket.writer
                Task {
                    try? await writer.writeTextMessage(
                        Self.suspendedEvent(reason: suspension.reason, until: suspension.endsAt))
                    try? await writer.close(Self.suspended, reason: Self.closeReason("suspended: " + suspension.reason))
                }
                continue
            }
            let verdict: Result<AccessGrant, AccessTokenError> =
                tokens.map { Self.verify(socket.token, with: $0, state: states[viewer]) } ?? .failure(.malformed)
            if case .failure(let reason) = verdict {
                closed += 1
                logger.info("signed out an open socket: \(reason)")
                let writer = socket.writer
                Task { try? await writer.close(Self.signedOut, reason: "signed out") }
            }
        }
        return closed
    }

    /// Runs `checkSignIns` every `configuration.signInCheckInterval` until
    /// the server stops.
    struct SignInCheck: Service {
        let server: SwipeServer

        func run() async throws {
            let interval = server.configuration.signInCheckInterval
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { break }
                    await server.checkSignIns()
                }
            }
        }
    }
}
