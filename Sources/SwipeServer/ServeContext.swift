import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `swipe serve`: WebSocket upgrades, and the peer's
/// address for the log.
public struct ServeContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}
