import Logging
import NIOCore
import Synchronization

/// The connections that have not yet sent a whole request head, per peer
/// address. Such a connection costs a file descriptor and tells nothing: a
/// peer may hold at most `perAddress` of them, the oldest giving way to a
/// newer one, and each has `headerTimeout` to finish its head. So idle or
/// half-sent connections cannot starve real requests (which finish their
/// head at once), and a stop never waits for them (`closePending`).
final class ConnectionGate: Sendable {
    let perAddress: Int
    let headerTimeout: TimeAmount
    private let pending = Mutex<[String: [ObjectIdentifier: (order: Int, channel: any Channel)]]>([:])
    private let counter = Atomic<Int>(0)

    init(perAddress: Int, headerTimeout: TimeAmount) {
        self.perAddress = max(1, perAddress)
        self.headerTimeout = headerTimeout
    }

    /// A new connection from `address`: closes the oldest pending one of
    /// that address when there are already `perAddress`.
    func opened(_ channel: any Channel, address: String) {
        let order = counter.add(1, ordering: .relaxed).newValue
        let evicted: (any Channel)? = pending.withLock { table in
            var entries = table[address, default: [:]]
            entries[ObjectIdentifier(channel)] = (order, channel)
            var oldest: (key: ObjectIdentifier, order: Int, channel: any Channel)?
            if entries.count > perAddress {
                for (key, entry) in entries where oldest == nil || entry.order < oldest!.order {
                    oldest = (key, entry.order, entry.channel)
                }
                if let oldest { entries[oldest.key] = nil }
            }
            table[address] = entries
            return oldest?.channel
        }
        evicted?.close(promise: nil)
    }

    /// The connection sent a whole head, or closed: no longer pending.
    func settled(_ channel: any Channel, address: String) {
        pending.withLock { table in
            table[address]?[ObjectIdentifier(channel)] = nil
            if table[address]?.isEmpty == true { table[address] = nil }
        }
    }

    var pendingCount: Int { pending.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// On a stop: closes every connection that has not sent a head yet
    /// (nothing is in flight on them).
    func closePending() {
        let channels = pending.withLock { table in table.values.flatMap { $0.values.map(\.channel) } }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// First in each connection's pipeline, on its raw bytes: tells the gate
/// when the first request head is complete (a blank line), and closes the
/// connection if it is not within the gate's `headerTimeout`.
final class ConnectionGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let gate: ConnectionGate
    private let address: String
    private var tail: [UInt8] = []
    private var settled = false
    private var deadline: Scheduled<Void>?

    init(gate: ConnectionGate, address: String) {
        self.gate = gate
        self.address = address
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        gate.opened(channel, address: address)
        deadline = context.eventLoop.scheduleTask(in: gate.headerTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { settle(context) }

    func channelInactive(context: ChannelHandlerContext) {
        settle(context)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !settled {
            let bytes = unwrapInboundIn(data).readableBytesView
            // The end of the head: CR LF CR LF, possibly split across reads.
            let window = tail + bytes.prefix(min(bytes.count, 64 * 1024))
            if window.count >= 4,
                (0...(window.count - 4)).contains(where: {
                    window[$0] == 13 && window[$0 + 1] == 10 && window[$0 + 2] == 13 && window[$0 + 3] == 10
                })
            {
                settle(context)
            } else {
                tail = Array(window.suffix(3))
            }
        }
        context.fireChannelRead(data)
    }

    private func settle(_ context: ChannelHandlerContext) {
        guard !settled else { return }
        settled = true
        tail = []
        deadline?.cancel()
        deadline = nil
        gate.settled(context.channel, address: address)
    }
}
