import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `swipe serve`: WebSocket upgrades, the peer's
/// address for the log, and the connection (a refused upgrade's answer is
/// written through its pipeline, `UpgradeRefusal`), and the viewer a
/// `SignInGate` let in.
public struct ServeContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?
    public let channel: any Channel
    /// The signed-in viewer, once a `SignInGate` let the request through.
    public internal(set) var viewer: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
