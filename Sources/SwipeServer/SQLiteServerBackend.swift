import Synchronization
import SwipeCLI
import SwipeCore
import SwipeStore
import SwipeSQLite

/// `swipe serve` over one SQLite file: each WebSocket session opens its own
/// connection (WAL lets readers run side by side), and every write in this
/// process (decisions, undo, the feed's cursor) takes one lock, so sessions
/// queue for SQLite's single writer here instead of meeting
/// SQLITE_BUSY; the connection's busy timeout still covers other processes.
public final class SQLiteServerBackend: ServerBackend {
    public let path: String
    public let synchronous: Connection.Synchronous
    private let writes = WriterLock()
    /// A connection for the server's own questions (secret, viewers), and
    /// the one every session's connection is opened beside.
    private let shared: Mutex<Store>

    /// Opens the existing database at `path` (nothing is created).
    public init(path: String, synchronous: Connection.Synchronous = .normal) throws {
        self.path = path
        self.synchronous = synchronous
        shared = Mutex(try Store(path: path, synchronous: synchronous, create: false))
    }

    public func accessSecret() throws -> String {
        try writes.run {
            try shared.withLock { store in
                guard let secret = try store.accessSecret(create: true) else { throw StoreError.missing(path: path) }
                return secret
            }
        }
    }

    public func isProfile(_ id: String) throws -> Bool {
        try shared.withLock { try $0.profileKey(id: id) != nil }
    }

    public func openSession(viewer: String, onMatch: @escaping @Sendable (MatchNotice) -> Void) throws -> any ViewerSession {
        // Safe beside the other sessions' connections: a file this process
        // already holds is not read behind SQLite's back (`OpenDatabaseFiles`).
        let store = try Store(path: path, synchronous: synchronous, create: false)
        let feed = LockedFeed(base: try SQLiteFeed(store: store, viewer: viewer), writes: writes)
        let ledger = NotifyingLedger(
            base: StoreLedger(store: store, viewer: viewer), writes: writes,
            viewer: viewer, viewerName: try store.profile(id: viewer)?.name, onMatch: onMatch)
        let controller = try DeckController(feed: feed, physics: .tantan)
        return ReplViewerSession(ReplSession(controller: controller, ledger: ledger, format: .json))
    }
}

/// One lock for every write this process makes to the database.
final class WriterLock: Sendable {
    private let mutex = Mutex(())

    func run<T>(_ body: () throws -> T) throws -> T {
        try mutex.withLock { _ in try body() }
    }
}

/// The SQLite feed, its cursor writes taken under the writer lock.
struct LockedFeed<Base: ProfileFeed>: ProfileFeed {
    var base: Base
    let writes: WriterLock

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        try writes.run { try base.nextProfiles(limit: limit, excluding: excluding) }
    }

    mutating func deckDidRecord(_ action: DeckAction) {
        base.deckDidRecord(action)
    }
}

/// The store's ledger, its writes under the writer lock, reporting each
/// decision that completes a match so the other viewer can be told.
struct NotifyingLedger<Base: ReplLedger>: ReplLedger {
    let base: Base
    let writes: WriterLock
    let viewer: String
    let viewerName: String?
    let onMatch: @Sendable (MatchNotice) -> Void

    func record(_ decision: DeckDecision) throws -> LedgerReceipt {
        let receipt = try writes.run { try base.record(decision) }
        if receipt.isMatch {
            onMatch(MatchNotice(recipient: decision.profile.id, liker: viewer, likerName: viewerName,
                                matchedAt: receipt.decidedAt))
        }
        return receipt
    }

    func undo(_ decision: DeckDecision) throws {
        try writes.run { try base.undo(decision) }
    }

    func history(about profile: String?) throws -> [LedgerEntry] {
        try base.history(about: profile)
    }

    func matches() throws -> [LedgerMatch] {
        try base.matches()
    }
}
