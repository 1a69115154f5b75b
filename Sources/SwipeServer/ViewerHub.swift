import HummingbirdWebSocket
import Synchronization

/// The sockets open right now, by viewer, so that a match made in one
/// session reaches the other viewer's sessions (`{"event":"match",…}`).
final class ViewerHub: Sendable {
    private let sockets = Mutex<[String: [Int: WebSocketOutboundWriter]]>([:])
    private let nextID = Atomic<Int>(0)

    /// Registers `writer` for `viewer`; returns the id to remove it with.
    func add(_ writer: WebSocketOutboundWriter, for viewer: String) -> Int {
        let id = nextID.add(1, ordering: .relaxed).newValue
        sockets.withLock { $0[viewer, default: [:]][id] = writer }
        return id
    }

    func remove(_ id: Int, for viewer: String) {
        sockets.withLock { sockets in
            sockets[viewer]?[id] = nil
            if sockets[viewer]?.isEmpty == true { sockets[viewer] = nil }
        }
    }

    /// How many sockets are open (all viewers).
    var count: Int { sockets.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Sends `text` to every socket of `viewer`; returns how many there were.
    /// The writes run on their own tasks: the caller (a store call on the
    /// thread pool) never waits for another viewer's network.
    @discardableResult
    func send(_ text: String, to viewer: String) -> Int {
        let writers = sockets.withLock { Array(($0[viewer] ?? [:]).values) }
        for writer in writers {
            Task { try? await writer.writeTextMessage(text) }
        }
        return writers.count
    }
}
