import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `swipe serve`: the page, and one deck session per WebSocket (README,
/// "The deck in a browser"). Everything that touches the store runs on
/// `threadPool`, never on an event loop, so a slow query holds up only the
/// socket that asked.
public struct SwipeServer: Sendable {
    public let backend: DatabaseServerBackend
    public let configuration: ServeConfiguration
    public let logger: Logger
    let threadPool: NIOThreadPool
    let tokens: AccessTokens
    let hub = ViewerHub()
    let preferenceChanges: ViewerBudgets

    /// Reads (creating if needed) the link secret on `threadPool`, which must
    /// be started and must outlive the server, and starts the backend's
    /// match relay (`stop()` stops it).
    public init(backend: DatabaseServerBackend, configuration: ServeConfiguration, logger: Logger,
                threadPool: NIOThreadPool) async throws {
        self.backend = backend
        self.configuration = configuration
        self.logger = logger
        self.threadPool = threadPool
        preferenceChanges = ViewerBudgets(perHour: configuration.preferenceChangesPerHour,
                                          burst: configuration.preferenceChangeBurst)
        tokens = AccessTokens(secret: try await threadPool.runIfActive { try backend.accessSecret() })
        let hub = hub
        try await threadPool.runIfActive {
            try backend.startRelay { notice in hub.send(notice.json, to: notice.recipient) }
        }
    }

    /// Stops the match relay (after the application has stopped).
    public func stop() async {
        let backend = backend
        try? await threadPool.runIfActive { backend.stopRelay() }
    }

    /// How many sockets are open right now.
    public var openSockets: Int { hub.count }

    /// The Hummingbird application; `onRunning` gets the bound port.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(context: ServeContext.self)
        addPageRoutes(to: router)
        let sockets = Router(context: ServeContext.self)
        sockets.ws("/ws") { request, context in
            try await checkUpgrade(request, context: context)
        } onUpgrade: { inbound, outbound, context in
            await serveSocket(inbound: inbound, outbound: outbound, request: context.request,
                              remote: context.requestContext.remoteAddress)
        }
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: sockets,
                configuration: .init(ws: .init(maxFrameSize: configuration.maxFrameSize))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: nil),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    // MARK: Access

    /// The token from `?token=` or else the `swipe_token` cookie.
    static func token(in request: Request) -> String? {
        if let query = request.uri.queryParameters["token"], !query.isEmpty { return String(query) }
        return request.cookies[Self.cookieName]?.value
    }

    static let cookieName = "swipe_token"

    /// The viewer `request` may act as, or why not.
    func authenticate(_ request: Request) async -> Result<AccessGrant, AccessTokenError> {
        guard let token = Self.token(in: request) else { return .failure(.missing) }
        let grant: AccessGrant
        do {
            grant = try tokens.verify(token)
        } catch {
            return .failure(error)
        }
        let backend = backend
        let exists = (try? await threadPool.runIfActive { try backend.isProfile(grant.viewer) }) ?? false
        return exists ? .success(grant) : .failure(.badSignature)
    }

    /// `shouldUpgrade` for `/ws`: the origin must be this host (else 403),
    /// the token valid (else 401, as for the page).
    func checkUpgrade(_ request: Request, context: ServeContext) async throws -> RouterShouldUpgrade {
        let remote = context.remoteAddress
        let origins = request.headers[values: .origin]
        guard origins.allSatisfy({ OriginCheck.allows(origin: $0, host: request.head.authority) }) else {
            logger.info("refused websocket: cross-origin", metadata: [
                "origin": .string(origins.joined(separator: ", ")), "remote": .string(Self.describe(remote)),
            ])
            return try await refuseUpgrade(.forbidden, "This socket accepts pages from its own host only.\n",
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

    /// What a 401 says: how to get in.
    static let signInHint =
        "This page needs a sign-in link; whoever runs this server makes one with `swipe link`."

    static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "?" }
        return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
    }
}
