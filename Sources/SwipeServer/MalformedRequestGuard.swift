import NIOCore
import NIOHTTP1

/// Right after the HTTP decoder: a request the decoder refuses (both
/// `Content-Length` and `Transfer-Encoding`, a head over the size limit,
/// bytes that are not HTTP) or one that is not HTTP/1.x (HTTP/0.9 has no
/// head at all) is answered 400 and the connection closed, instead of the
/// connection being dropped without a word or left waiting. It leaves the
/// pipeline at a WebSocket upgrade (the frames that follow are not HTTP).
final class MalformedRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            guard head.version.major == 1, head.version.minor <= 1 else {
                refuse(context, "not HTTP/1.x")
                return
            }
            if head.headers.contains(name: "content-length"), head.headers.contains(name: "transfer-encoding") {
                refuse(context, "both Content-Length and Transfer-Encoding")
                return
            }
            if head.headers.contains(name: "upgrade") {
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError || error is ByteToMessageDecoderError {
            refuse(context, "malformed")
        } else {
            context.fireErrorCaught(error)
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ why: String) {
        guard !refused else { return }
        refused = true
        var body = context.channel.allocator.buffer(capacity: 64)
        body.writeString("Bad request (\(why)).\n")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
