import Logging
import NIOCore
import Synchronization

/// The connections that have not yet sent a whole request head, per peer
/// address. Such a connection costs a file descriptor and tells nothing.
///
/// Behind a proxy every user shares one address, and a burst of complete
/// requests opens many connections at once whose heads are still in flight
/// (issue 36: of 150 simultaneous requests from one address, 32 were
/// answered and the rest closed without a word). So the limit counts only
/// connections that have sent nothing for a while:
///
/// - past `perAddress` pending connections, the oldest one that has been
///   silent for `evictAfter` gives way to the newer one;
/// - a burst of fresh connections is kept, up to `hardLimit` per address
///   (at most half the connections the file descriptors allow); past it
///   the oldest pending one gives way, answered `503` with `Retry-After`;
/// - a connection evicted, or one that does not finish its head within
///   `headerTimeout`, is answered too (503, 408) before it closes.
///
/// A stop never waits for pending connections (`closePending`).
final class ConnectionGate: Sendable {
    let perAddress: Int
    let headerTimeout: TimeAmount
    /// How long a connection may stay silent before a newer one may evict it.
    let evictAfter: TimeAmount
    /// Pending connections per address past which new ones are refused.
    let hardLimit: Int
    private let pending = Mutex<[String: [ObjectIdentifier: Entry]]>([:])
    private let counter = Atomic<Int>(0)

    private struct Entry {
        var order: Int
        var opened: NIODeadline
        var channel: any Channel
    }

    init(perAddress: Int, headerTimeout: TimeAmount, evictAfter: TimeAmount = .seconds(1), hardLimit: Int? = nil) {
        self.perAddress = max(1, perAddress)
        self.headerTimeout = headerTimeout
        self.evictAfter = evictAfter
        self.hardLimit = max(self.perAddress, hardLimit ?? 8 * self.perAddress)
    }

    /// A new connection from `address` (`now` is when it opened). Over
    /// `perAddress` pending connections, the oldest one silent for
    /// `evictAfter` gives way; over `hardLimit`, the oldest gives way
    /// whatever its age, so pending connections never hold the file
    /// descriptors a real request needs. Either is answered 503 with
    /// `Retry-After` before it closes. Returns the connection evicted.
    @discardableResult
    func opened(_ channel: any Channel, address: String, now: NIODeadline = .now()) -> (any Channel)? {
        let order = counter.add(1, ordering: .relaxed).newValue
        let evicted: (any Channel)? = pending.withLock { table in
            var entries = table[address, default: [:]]
            entries[ObjectIdentifier(channel)] = Entry(order: order, opened: now, channel: channel)
            var victim: (key: ObjectIdentifier, value: Entry)?
            if entries.count > hardLimit {
                victim = entries.min { $0.value.order < $1.value.order }
            } else if entries.count > perAddress {
                victim = entries.filter { now - $0.value.opened >= evictAfter }.min { $0.value.order < $1.value.order }
            }
            if let victim { entries[victim.key] = nil }
            table[address] = entries
            return victim?.value.channel
        }
        if let evicted { Self.answer(evicted, Self.busy) }
        return evicted
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

    /// Over a limit: `503` with `Retry-After` (RFC 9110 §15.6.4), never a silent close.
    static let busy = response(
        "503 Service Unavailable", headers: ["Retry-After: 1"],
        body: "Too many connections from your address at once: retry in a second.\n")
    /// A head not finished in time.
    static let timedOut = response(
        "408 Request Timeout", headers: [], body: "The request head did not arrive in time.\n")
    /// A first line that is no HTTP/1.x request line (HTTP/0.9 has no version).
    static let notHTTP1 = response("400 Bad Request", headers: [], body: "Bad request (not HTTP/1.x).\n")

    static func response(_ status: String, headers: [String], body: String) -> String {
        (["HTTP/1.1 " + status, "Content-Type: text/plain; charset=utf-8", "Content-Length: \(body.utf8.count)"]
            + headers + ["Connection: close", "", ""]).joined(separator: "\r\n") + body
    }

    /// Writes `text` to the socket of a connection that has sent no whole
    /// head (so no HTTP handler has answered anything on it), then closes it.
    static func answer(_ channel: any Channel, _ text: String) {
        channel.eventLoop.execute {
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: ConnectionGateHandler.self)
            else {
                channel.close(promise: nil)
                return
            }
            (context.handler as? ConnectionGateHandler)?.answer(context, text)
        }
    }
}

/// First in each connection's pipeline, on its raw bytes: tells the gate
/// when the first request head is complete (a blank line), answers a first
/// line that is no HTTP/1.x request line with 400 at once, and answers 408
/// and closes when the head is not complete within the gate's `headerTimeout`.
final class ConnectionGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let gate: ConnectionGate
    private let address: String
    private var tail: [UInt8] = []
    /// The first line's bytes so far, until its line feed.
    private var firstLine: [UInt8]? = []
    private var settled = false
    private var answered = false
    private var deadline: Scheduled<Void>?

    init(gate: ConnectionGate, address: String) {
        self.gate = gate
        self.address = address
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        gate.opened(channel, address: address)
        deadline = context.eventLoop.scheduleTask(in: gate.headerTimeout) {
            ConnectionGate.answer(channel, ConnectionGate.timedOut)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { settle(context) }

    func channelInactive(context: ChannelHandlerContext) {
        settle(context)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        if !settled {
            let bytes = unwrapInboundIn(data).readableBytesView
            if var line = firstLine {
                if let end = bytes.firstIndex(of: 10) {
                    line += bytes[bytes.startIndex..<end]
                    firstLine = nil
                    if !Self.isHTTP1RequestLine(line) {
                        answer(context, ConnectionGate.notHTTP1)
                        return
                    }
                } else {
                    line += bytes.prefix(16 * 1024)
                    firstLine = line
                }
            }
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

    /// `METHOD SP TARGET SP HTTP/1.x` (a CR at the end aside). Anything
    /// else, HTTP/0.9's `GET /` among them, is answered 400 here: the
    /// decoder would wait for a head that never comes.
    static func isHTTP1RequestLine(_ bytes: [UInt8]) -> Bool {
        var line = bytes
        if line.last == 13 { line.removeLast() }
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        let version = Array(parts[2])
        return version.count == 8 && version.starts(with: Array("HTTP/1.".utf8)) && (48...57).contains(version[7])
    }

    /// Writes `text` straight to the socket and closes the connection.
    func answer(_ context: ChannelHandlerContext, _ text: String) {
        guard !answered else { return }
        answered = true
        settle(context)
        let buffer = context.channel.allocator.buffer(string: text)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in context.close(promise: nil) }
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
