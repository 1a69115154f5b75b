import NIOCore
import NIOHTTP1

/// The answer to a refused WebSocket upgrade: 401 with how to sign in, or
/// 403 for another site's page, with the page's security headers.
///
/// hummingbird-websocket answers every upgrade its `shouldUpgrade` declines
/// with a bare `400 Bad Request` and closes the connection, and it cannot be
/// told a status. So `SwipeServer.checkUpgrade`, when it refuses, puts this
/// handler in the connection's pipeline just after the upgrade handler: the
/// HTTP codec hummingbird adds for the refusal goes after it, so the 400's
/// head and end pass through here and leave as this answer. It handles one
/// response: the connection closes after it.
final class UpgradeRefusal: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let status: HTTPResponseStatus
    private let headers: [(String, String)]
    private let body: String
    private enum State { case waitingForHead, replacingBody, done }
    private var state = State.waitingForHead

    init(status: HTTPResponseStatus, headers: [(String, String)], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch (state, unwrapOutboundIn(data)) {
        case (.waitingForHead, .head(let head)):
            state = .replacingBody
            var fields = HTTPHeaders(headers)
            fields.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
            fields.replaceOrAdd(name: "Content-Length", value: String(body.utf8.count))
            fields.replaceOrAdd(name: "Connection", value: "close")
            let replaced = HTTPResponseHead(version: head.version, status: status, headers: fields)
            context.write(wrapOutboundOut(.head(replaced)), promise: promise)
        case (.replacingBody, .body):
            // The refusal has no body of its own; ours replaces it.
            promise?.succeed(())
        case (.replacingBody, .end(let trailers)):
            state = .done
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}
