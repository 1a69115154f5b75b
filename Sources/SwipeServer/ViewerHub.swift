import HummingbirdWebSocket
import NIOWebSocket
import SwipeSession
import SwipeStore
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
        /// Pushes to it, written one after another in the order sent.
        let outbox: SocketOutbox
    }

    private let sockets = Mutex<[String: [Int: Socket]]>([:])
    private let nextID = Atomic<Int>(0)

    /// What a page is told when its deck changed without its asking: it
    /// asks for the deck (`deck`), which takes the card out first.
    static let deckChanged = #"{"event":"deck-changed"}"#

    /// A socket's id, taken before its session opens, so that what the
    /// session hears can leave out the socket it came from.
    func reserveID() -> Int { nextID.add(1, ordering: .relaxed).newValue }

    /// Registers `writer` and its session for `viewer` as socket `id`
    /// (`reserveID`, the id to remove it with); false when `viewer` already
    /// has `limit` sockets open.
    func add(
        _ writer: WebSocketOutboundWriter, session: SocketSession, token: String, for viewer: String, id: Int,
        limit: Int = .max
    ) -> Bool {
        sockets.withLock { sockets in
            guard (sockets[viewer]?.count ?? 0) < limit else { return false }
            sockets[viewer, default: [:]][id] = Socket(
                writer: writer, session: session, token: token, outbox: SocketOutbox(writer))
            return true
        }
    }

    func remove(_ id: Int, for viewer: String) {
        let removed = sockets.withLock { sockets in
            defer { if sockets[viewer]?.isEmpty == true { sockets[viewer] = nil } }
            return sockets[viewer]?.removeValue(forKey: id)
        }
        removed?.outbox.finish()
    }

    /// Every open socket.
    var all: [Socket] { sockets.withLock { $0.values.flatMap(\.values) } }

    /// How many sockets are open (all viewers).
    var count: Int { sockets.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func sockets(of viewer: String, except: Int? = nil) -> [Socket] {
        sockets.withLock { sockets in
            guard let open = sockets[viewer] else { return [] }
            return open.compactMap { $0.key == except ? nil : $0.value }
        }
    }

    /// Sends `text` to every socket of `viewer` but `except` (the one that
    /// acted, which its answer tells), each through its outbox, in order.
    /// The text is written only if there is such a socket (most people have
    /// one tab open).
    func send(_ text: @autoclosure () -> String, to viewer: String, except: Int) {
        let outboxes = sockets(of: viewer, except: except).map(\.outbox)
        guard !outboxes.isEmpty else { return }
        let text = text()
        for outbox in outboxes { outbox.send(text) }
    }

    /// Closes every socket of `viewer` but `except` (the viewer was erased).
    func closeAll(of viewer: String, except: Int) {
        for writer in sockets(of: viewer, except: except).map(\.writer) {
            Task { try? await writer.close(.normalClosure, reason: "erased") }
        }
    }

    /// Sends `text` to every socket of `viewer`; returns how many there were.
    /// The writes run on each socket's own writer task (`SocketOutbox`): the
    /// caller (a store call on the thread pool) never waits for another
    /// viewer's network, and two pushes to a socket arrive in the order sent.
    @discardableResult
    func send(_ text: String, to viewer: String) -> Int {
        let outboxes = sockets(of: viewer).map(\.outbox)
        for outbox in outboxes { outbox.send(text) }
        return outboxes.count
    }

    /// Tells both people's open sockets that their match (and its
    /// conversation) ended: `{"event":"match-ended","profile":OTHER}`, so
    /// an open chat closes on every page. Sent after an unmatch or a block
    /// (also when they had no match: a page closes nothing then).
    func matchEnded(between viewer: String, and other: String) {
        for socket in sockets(of: viewer) { socket.session.forgetPartner(other) }
        for socket in sockets(of: other) { socket.session.forgetPartner(viewer) }
        send(Self.matchEnded(other), to: viewer)
        send(Self.matchEnded(viewer), to: other)
    }

    /// `viewer`'s sessions forget `other` as a match (told it ended).
    func forgetPartner(_ other: String, of viewer: String) {
        for socket in sockets(of: viewer) { socket.session.forgetPartner(other) }
    }

    /// Tells `notice.recipient`'s open sockets of their new match
    /// (`{"event":"match",…}`), and has their sessions note the partner.
    func sendMatch(_ notice: MatchNotice) {
        for socket in sockets(of: notice.recipient) { socket.session.notePartners([notice.liker]) }
        send(notice.json, to: notice.recipient)
    }

    /// Closes every socket of `viewer` with `code` and `reason`; returns how many.
    @discardableResult
    func close(_ viewer: String, code: WebSocketErrorCode, reason: String) -> Int {
        let writers = sockets(of: viewer).map(\.writer)
        for writer in writers { Task { try? await writer.close(code, reason: reason) } }
        return writers.count
    }

    /// Every open socket with its viewer.
    var byViewer: [(viewer: String, socket: Socket)] {
        sockets.withLock { sockets in
            sockets.flatMap { viewer, open in open.values.map { (viewer, $0) } }
        }
    }

    static func matchEnded(_ profile: String) -> String {
        JSONValue.object([("event", "match-ended"), ("profile", .string(profile))]).serialized
    }

    /// Takes `profile`'s card out of every open deck of `viewer` (before
    /// that deck's next command) and tells those pages their deck changed.
    func withdraw(_ profile: String, from viewer: String) {
        for socket in sockets(of: viewer) {
            socket.session.withdrawSoon(profile)
            socket.outbox.send(Self.deckChanged)
        }
    }
}

/// One socket's pushes, written by one task in the order they were sent.
/// (A task per write, as before, lets two pushes sent a moment apart
/// arrive in either order: a message's `seq` 2 before its 1.)
final class SocketOutbox: Sendable {
    private let continuation: AsyncStream<String>.Continuation

    init(_ writer: WebSocketOutboundWriter) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.continuation = continuation
        Task {
            for await text in stream { try? await writer.writeTextMessage(text) }
        }
    }

    /// Queues `text` (never waits).
    func send(_ text: String) { continuation.yield(text) }

    /// Ends the writer task once what is queued is written (the socket closed).
    func finish() { continuation.finish() }
}
