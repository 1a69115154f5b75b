import Foundation

/// How `swipe serve` listens and what it tolerates from one socket.
public struct ServeConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port (tests); the bound one is reported when running.
    public var port: Int
    /// Larger WebSocket frames (and messages) close that socket (1009).
    public var maxFrameSize: Int
    /// Each viewer's command budget (`CommandBudget`), shared by all their
    /// sockets; past it the socket that asked is closed with 1008 (policy
    /// violation).
    public var commandsPerSecond: Double
    public var commandBurst: Double
    /// Each viewer's budget of changes of preferences (`prefs …`, their
    /// place included), across all their sockets: a person moves now and
    /// then; a script stepping its place to map where others are does not
    /// get far. Past it the change is refused and the socket stays open.
    public var preferenceChangesPerHour: Double
    public var preferenceChangeBurst: Double
    /// A new connection has this long to send its first request head, else
    /// it is closed (a half-sent header holds nothing open for long).
    public var headerTimeout: Duration
    /// A kept-alive HTTP connection with no request for this long is closed.
    /// (A WebSocket is pinged every 30 s instead and closed if it does not answer.)
    public var idleTimeout: Duration
    /// Connections one address may hold before sending a request head; a
    /// newer one evicts the oldest that has been silent for
    /// `silentConnectionGrace` (answered 503), and a burst of fresh ones is
    /// kept up to 8 times this many, past which a new one is answered 503
    /// with `Retry-After` (`ConnectionGate`).
    public var pendingConnectionsPerAddress: Int
    /// How long a connection may have sent nothing before a newer one from
    /// the same address may evict it: long enough for a complete request in
    /// flight to arrive, so a proxy's burst is answered whole.
    public var silentConnectionGrace: Duration = .seconds(1)
    /// On a stop, how long a socket's client has to answer the close frame
    /// (and any connection to finish) before its TCP connection is closed.
    public var stopGrace: Duration
    /// The largest request head accepted (bytes); a larger one gets 400.
    public var maxHeaderBytes: Int
    /// How often open sockets' sign-ins are checked again (expiry,
    /// revocation, a new secret); a socket outlives its sign-in by at most this.
    public var signInCheckInterval: Duration
    /// Sockets one viewer may have open at once; one more is closed at once
    /// with 4029 ("too many sockets").
    public var socketsPerViewer: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxFrameSize: Int = 64 * 1024,
        commandsPerSecond: Double = 100, commandBurst: Double = 200,
        preferenceChangesPerHour: Double = 6, preferenceChangeBurst: Double = 6,
        headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        pendingConnectionsPerAddress: Int = 32, stopGrace: Duration = .seconds(2),
        maxHeaderBytes: Int = 16 * 1024, signInCheckInterval: Duration = .seconds(2),
        socketsPerViewer: Int = 8
    ) {
        self.socketsPerViewer = socketsPerViewer
        self.signInCheckInterval = signInCheckInterval
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.pendingConnectionsPerAddress = pendingConnectionsPerAddress
        self.stopGrace = stopGrace
        self.maxHeaderBytes = maxHeaderBytes
        self.host = host
        self.port = port
        self.maxFrameSize = maxFrameSize
        self.commandsPerSecond = commandsPerSecond
        self.commandBurst = commandBurst
        self.preferenceChangesPerHour = preferenceChangesPerHour
        self.preferenceChangeBurst = preferenceChangeBurst
    }

    /// Where browsers reach this server when it is not `host:port` (behind a
    /// reverse proxy): printed links and Origin checks use it; https makes
    /// the cookie `Secure` and `__Host-`.
    public var publicURL: URL?

    public var isHTTPS: Bool { publicURL?.scheme?.lowercased() == "https" }

    /// Whether `host` is a loopback address, reachable from this machine only.
    public var isLoopback: Bool {
        let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }
}
