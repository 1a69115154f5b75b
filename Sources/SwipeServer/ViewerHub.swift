import HummingbirdWebSocket
import Synchronization

/// The sockets open right now, by viewer, so that what one session does
/// reaches the other viewer's sessions: a match (`{"event":"match",…}`), a
/// block (the card leaves their decks, `{"event":"deck-changed"}`).
final class ViewerHub: Sendable {
    struct Socket: Sendable {
        let writer: WebSocketOutboundWriter
        let session: SocketSession
        /// The token it signed in with, checked again and again (`SwipeServer.checkSignIns`).
        let token: String
    }

    private let sockets = Mutex<[String: [Int: Socket]]>([:])
    private let nextID = Atomic<Int>(0)

    /// What a page is told when its deck changed without its asking: it
    /// asks for the deck (`deck`), which takes the card out first.
    static let deckChanged = #"{"event":"deck-changed"}"#

    /// Registers `writer` and its session for `viewer`; returns the id to remove it with.
    /// Nil when `viewer` already has `limit` sockets open.
    func add(
        _ writer: WebSocketOutboundWriter, session: SocketSession, token: String, for viewer: String,
        limit: Int = .max
    ) -> Int? {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return sockets.withLock { sockets in
            guard (sockets[viewer]?.count ?? 0) < limit else { return nil }
            sockets[viewer, default: [:]][id] = Socket(writer: writer, session: session, token: token)
            return id
        }
    }

    func remove(_ id: Int, for viewer: String) {
        sockets.withLock { sockets in
            sockets[viewer]?[id] = nil
            if sockets[viewer]?.isEmpty == true { sockets[viewer] = nil }
        }
    }

    /// Every open socket.
    var all: [Socket] { sockets.withLock { $0.values.flatMap(\.values) } }

    /// How many sockets are open (all viewers).
    var count: Int { sockets.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func sockets(of viewer: String, except: Int? = nil) -> [Socket] {
        sockets.withLock { ($0[viewer] ?? [:]).filter { $0.key != except }.map(\.value) }
    }

    /// Sends `text` to every socket of `viewer` but `except` (the one that acted).
    func send(_ text: String, to viewer: String, except: Int) {
        for writer in sockets(of: viewer, except: except).map(\.writer) {
            Task { try? await writer.writeTextMessage(text) }
        }
    }

    /// Closes every socket of `viewer` but `except` (the viewer was erased).
    func closeAll(of viewer: String, except: Int) {
        for writer in sockets(of: viewer, except: except).map(\.writer) {
            Task { try? await writer.close(.normalClosure, reason: "erased") }
        }
    }

    /// Sends `text` to every socket of `viewer`; returns how many there were.
    /// The writes run on their own tasks: the caller (a store call on the
    /// thread pool) never waits for another viewer's network.
    @discardableResult
    func send(_ text: String, to viewer: String) -> Int {
        let writers = sockets(of: viewer).map(\.writer)
        for writer in writers {
            Task { try? await writer.writeTextMessage(text) }
        }
        return writers.count
    }

    /// Takes `profile`'s card out of every open deck of `viewer` (before
    /// that deck's next command) and tells those pages their deck changed.
    func withdraw(_ profile: String, from viewer: String) {
        for socket in sockets(of: viewer) {
            socket.session.withdrawSoon(profile)
            Task { try? await socket.writer.writeTextMessage(Self.deckChanged) }
        }
    }
}
