import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Hummingbird's HTTP/1 + WebSocket child channel with what a server facing
/// strangers needs around it (README, "Stops that stop"): the connection
/// gate in front (`ConnectionGate`), malformed requests answered 400
/// (`MalformedRequestGuard`), and a stop that cannot be held up: on
/// SIGTERM a connection that never sent a head closes at once, and any
/// other (a WebSocket whose client never answers the close frame, a
/// response being read slowly) `stopGrace` later.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let gate: ConnectionGate
    let stopGrace: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let address = channel.remoteAddress?.ipAddress ?? "?"
        let gate = gate
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGateHandler(gate: gate, address: address), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.context(
                handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(MalformedRequestGuard(), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        let grace = stopGrace
        let gate = gate
        await withGracefulShutdownHandler {
            await inner.handle(value: value, logger: logger)
        } onGracefulShutdown: {
            gate.closePending()
            channel.eventLoop.execute {
                channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
            }
        }
    }
}
