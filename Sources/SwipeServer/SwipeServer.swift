import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import SwipeStore

/// `swipe serve`: the page, and one deck session per WebSocket (README,
/// "The deck in a browser"). Everything that touches the store runs on
/// `threadPool`, never on an event loop, so a slow query holds up only the
/// socket that asked.
public struct SwipeServer: Sendable {
    public let backend: DatabaseServerBackend
    public let configuration: ServeConfiguration
    public let logger: Logger
    let threadPool: NIOThreadPool
    let signIns: SignIns
    let hub = ViewerHub()
    /// Pushes what other processes store (`ChangeWatcher`).
    let watcher: ChangeWatcher
    /// Refits the ranking's model every `Ranking.refitSeconds` (`RankingRefitter`).
    let refits: Task<Void, Never>
    let gate: ConnectionGate
    let preferenceChanges: ViewerBudgets
    let commandBudgets: ViewerBudgets
    /// What `GET /metrics` reports (this server's own registry).
    public let metrics = ServeMetrics()

    /// Reads (creating if needed) the link secret on `threadPool`, which must
    /// be started and must outlive the server, and starts the backend's
    /// match relay (`stop()` stops it).
    public init(
        backend: DatabaseServerBackend, configuration: ServeConfiguration, logger: Logger,
        threadPool: NIOThreadPool
    ) async throws {
        self.backend = backend
        self.configuration = configuration
        self.logger = logger
        self.threadPool = threadPool
        gate = ConnectionGate(
            perAddress: configuration.pendingConnectionsPerAddress,
            headerTimeout: TimeAmount(configuration.headerTimeout),
            evictAfter: TimeAmount(configuration.silentConnectionGrace),
            // Pending connections of one address never take more than half the
            // connections the file descriptors allow: a real request still gets in.
            hardLimit: min(
                8 * configuration.pendingConnectionsPerAddress,
                max(configuration.pendingConnectionsPerAddress, Self.connectionLimit / 2)))
        preferenceChanges = ViewerBudgets(
            perHour: configuration.preferenceChangesPerHour,
            burst: configuration.preferenceChangeBurst)
        commandBudgets = ViewerBudgets(perSecond: configuration.commandsPerSecond, burst: configuration.commandBurst)
        signIns = SignIns(secret: try await threadPool.runIfActive { try backend.accessSecret() })
        let hub = hub
        let metrics = metrics
        let watcher = ChangeWatcher(
            backend: backend, logger: logger,
            pushMatch: { notice in
                hub.sendMatch(notice)
                metrics.pushLag(matchedAt: notice.matchedAt)
            },
            pushMessage: { notice in
                hub.send(notice.json, to: notice.message.recipient)
                hub.send(notice.senderJSON, to: notice.message.sender)
            },
            sweepErasures: { claim in
                try Self.sweepErasures(hub: hub, backend: backend, claim: claim, logger: logger)
            })
        self.watcher = watcher
        refits = RankingRefitter.start(backend, threadPool: threadPool, logger: logger)
        try await threadPool.runIfActive {
            try watcher.prime()
            // What another serve process relays is a hint to look now; what
            // is pushed is read from the tables (`ChangeWatcher`).
            try backend.startRelay { _ in watcher.poke() }
        }
        watcher.start()
    }

    /// Stops the match relay, the change watcher and the refits (after the application has stopped).
    public func stop() async {
        let backend = backend
        let watcher = watcher
        refits.cancel()
        try? await threadPool.runIfActive {
            backend.stopRelay()
            watcher.stop()
        }
    }

    /// How many sockets are open right now.
    public var openSockets: Int { hub.count }

    /// The Hummingbird application; `onRunning` gets the bound port.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(context: ServeContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        addPhotoRoutes(to: router)
        addUploadRoutes(to: router)
        addExportRoutes(to: router)
        addPageRoutes(to: router)
        let sockets = Router(context: ServeContext.self)
        sockets.ws("/ws") { request, context in
            try await checkUpgrade(request, context: context)
        } onUpgrade: { inbound, outbound, context in
            try await serveSocket(
                inbound: inbound, outbound: outbound, request: context.request,
                remote: context.requestContext.remoteAddress)
        }
        let webSocketResponder = sockets.buildResponder()
        let configuration = configuration
        let gate = gate
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                idleTimeout: TimeAmount(configuration.idleTimeout),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: configuration.maxHeaderBytes,
                    maxHeaderListSize: configuration.maxHeaderBytes,
                    maxHeaderFieldCount: 100)),
            ws: .init(
                maxFrameSize: configuration.maxFrameSize, closeTimeout: configuration.stopGrace,
                validateUTF8: true))
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                    gate: gate, stopGrace: TimeAmount(configuration.stopGrace))
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(Self.connectionLimit)),
            services: [SignInCheck(server: self)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Connections accepted at once: what the file descriptor limit leaves
    /// after the store's connections, files and threads (64). Past it new
    /// connections wait in the backlog instead of failing to be accepted.
    static var connectionLimit: Int {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 10_000 }
        return max(16, Int(min(limit.rlim_cur, 1_000_000)) - 64)
    }

    // MARK: Access

    /// The token from `?token=` or else the sign-in cookie.
    func token(in request: Request) -> String? {
        if let query = request.uri.queryParameters["token"], !query.isEmpty { return String(query) }
        return cookieToken(in: request)
    }

    func cookieToken(in request: Request) -> String? {
        request.cookies[cookieName]?.value
    }

    /// `swipe_token`; behind https (`--public-url https://…`) the cookie is
    /// `Secure` and named `__Host-swipe_token`, which browsers keep only if
    /// it was set over https, for this host alone, on path `/`.
    var cookieName: String { configuration.isHTTPS ? "__Host-swipe_token" : "swipe_token" }

    /// The sign-in cookie holding `token` for `seconds` (0: clears it).
    func signInCookie(_ token: String, seconds: Int) -> Cookie {
        Cookie(
            name: cookieName, value: token, maxAge: seconds, path: "/", secure: configuration.isHTTPS,
            httpOnly: true, sameSite: .strict)
    }

    /// The viewer `request` may act as, or why not.
    func authenticate(_ request: Request) async -> Result<AccessGrant, AccessTokenError> {
        guard let token = token(in: request) else { return .failure(.missing) }
        return await verify(token)
    }

    /// Whether `token` signs in now: signed with the secret as stored, under
    /// the viewer's current sign-in generation (not revoked), not expired,
    /// for a profile that exists and is not suspended (a ban also raises
    /// the generation, so this is said only to a token made after it). Asked of every request and, again and
    /// again, of every open socket's token (`checkSignIns`).
    func verify(_ token: String) async -> Result<AccessGrant, AccessTokenError> {
        guard let tokens = signIns.tokens, let claimed = AccessTokens.claimedViewer(in: token) else {
            return .failure(.malformed)
        }
        let backend = backend
        guard
            let states = try? await threadPool.runIfActive({
                try backend.reading { try $0.signInStates(of: [claimed], at: nil) }
            })
        else {
            return .failure(.badSignature)
        }
        return Self.verify(token, with: tokens, state: states[claimed])
    }

    /// `verify` once the viewer's state is read (`SignInState`; nil: no
    /// such profile): the token's signature, generation and expiry first,
    /// then that the profile exists, then that no suspension stands.
    static func verify(_ token: String, with tokens: AccessTokens, state: SignInState?) -> Result<
        AccessGrant, AccessTokenError
    > {
        let grant: AccessGrant
        do {
            grant = try tokens.verify(token, generation: state?.generation ?? 0)
        } catch {
            return .failure(error)
        }
        guard let state else { return .failure(.badSignature) }
        if let suspension = state.suspension {
            return .failure(.suspended(reason: suspension.reason, until: suspension.endsAt))
        }
        return .success(grant)
    }

    /// `shouldUpgrade` for `/ws`: the origin must be this host (else 403),
    /// the token valid (else 401, as for the page).
    func checkUpgrade(_ request: Request, context: ServeContext) async throws -> RouterShouldUpgrade {
        let remote = context.remoteAddress
        let origins = request.headers[values: .origin]
        guard origins.allSatisfy({ originAllowed($0, request: request) }) else {
            logger.info(
                "refused websocket: cross-origin",
                metadata: [
                    "origin": .string(origins.joined(separator: ", ")), "remote": .string(Self.describe(remote)),
                ])
            return try await refuseUpgrade(
                .forbidden, "This socket accepts pages from its own host only.\n",
                on: context.channel)
        }
        if case .failure(let reason) = await authenticate(request) {
            logger.info("refused websocket: \(reason)", metadata: ["remote": .string(Self.describe(remote))])
            return try await refuseUpgrade(.unauthorized, Self.signInHint + "\n", on: context.channel)
        }
        return .upgrade([:])
    }

    /// Declines the upgrade, and has its answer be `status` with `body`
    /// and the page's security headers (`UpgradeRefusal`).
    private func refuseUpgrade(_ status: HTTPResponseStatus, _ body: String, on channel: any Channel) async throws
        -> RouterShouldUpgrade
    {
        let headers = Self.securityHeaders.map { ($0.name.rawName, $0.value) }
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(UpgradeRefusal(status: status, headers: headers, body: body))
        }.get()
        return .dontUpgrade
    }

    /// Whether a page from `origin` may drive this server: its own host (the
    /// Host header), or the public URL's origin behind a proxy.
    func originAllowed(_ origin: String, request: Request) -> Bool {
        if let publicURL = configuration.publicURL, OriginCheck.allows(origin: origin, publicURL: publicURL) {
            return true
        }
        return OriginCheck.allows(origin: origin, host: request.head.authority)
    }

    /// What a 401 says: how to get in.
    static let signInHint =
        "This page needs a sign-in link; whoever runs this server makes one with `swipe link`."

    static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "?" }
        return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
    }
}
