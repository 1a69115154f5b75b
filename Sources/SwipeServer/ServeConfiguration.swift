import Foundation

/// How `swipe serve` listens and what it tolerates from one socket.
public struct ServeConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port (tests); the bound one is reported when running.
    public var port: Int
    /// Larger WebSocket frames (and messages) close that socket (1009).
    public var maxFrameSize: Int
    /// Each socket's command budget (`CommandBudget`); past it the socket
    /// is closed with 1008 (policy violation).
    public var commandsPerSecond: Double
    public var commandBurst: Double
    /// Each viewer's budget of changes of preferences (`prefs …`, their
    /// place included), across all their sockets: a person moves now and
    /// then; a script stepping its place to map where others are does not
    /// get far. Past it the change is refused and the socket stays open.
    public var preferenceChangesPerHour: Double
    public var preferenceChangeBurst: Double

    public init(host: String = "127.0.0.1", port: Int = 8080, maxFrameSize: Int = 64 * 1024,
                commandsPerSecond: Double = 100, commandBurst: Double = 200,
                preferenceChangesPerHour: Double = 6, preferenceChangeBurst: Double = 6) {
        self.host = host
        self.port = port
        self.maxFrameSize = maxFrameSize
        self.commandsPerSecond = commandsPerSecond
        self.commandBurst = commandBurst
        self.preferenceChangesPerHour = preferenceChangesPerHour
        self.preferenceChangeBurst = preferenceChangeBurst
    }

    /// Whether `host` is a loopback address, reachable from this machine only.
    public var isLoopback: Bool {
        let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }
}
