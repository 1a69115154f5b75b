import Synchronization
import SwipeCLI
import SwipeCore
import SwipeStore

/// `swipe serve` over any swipe database (`SwipeDatabase`: one SQLite file
/// or a PostgreSQL server). Sessions hold no connection of their own: each
/// store call borrows one from a small pool (`DatabasePool`) for as long as
/// the call lasts, so 10,000 open sockets need a few connections, not 10,000.
///
/// How writes meet depends on the backend (`ServedWrites`); a match made
/// here is reported to the server (which pushes it to the other viewer's
/// sockets in this process) and published on `relay` (for other processes).
public final class DatabaseServerBackend: ServerBackend {
    private let pool: DatabasePool
    private let writes: WriteQueue
    private let relay: any MatchRelay
    /// Where the data is, for messages (a path, or a URI without its password).
    public let location: String

    /// - Parameters:
    ///   - writes: `.oneAtATime` for SQLite, `.concurrent` for PostgreSQL.
    ///   - connections: at most this many databases open at once.
    ///   - open: opens the existing database (never creates it); called once
    ///     now, so a missing or unreachable database fails here, and then
    ///     whenever the pool needs another connection.
    public init(writes: ServedWrites, connections: Int = 8, relay: any MatchRelay = LocalMatchRelay(),
                open: @escaping @Sendable () throws -> any SwipeDatabase) throws {
        pool = DatabasePool(capacity: max(1, connections), open: open)
        self.writes = WriteQueue(pool: pool, grouped: writes == .oneAtATime)
        self.relay = relay
        location = try pool.withDatabase { $0.location }
    }

    /// How many connections the pool has open right now.
    public var openConnections: Int { pool.openCount }

    public func accessSecret() throws -> String {
        try writes.write { database in
            guard let secret = try database.accessSecret(create: true) else {
                throw DatabaseOpenError.missing(path: database.location)
            }
            return secret
        }
    }

    public func isProfile(_ id: String) throws -> Bool {
        try pool.withDatabase { try $0.isProfile(id) }
    }

    public func openSession(viewer: String, onMatch: @escaping @Sendable (MatchNotice) -> Void) throws
        -> any ViewerSession
    {
        let name = try pool.withDatabase { try $0.viewerProfile(viewer).name }
        let relay = relay
        let ledger = PooledLedger(pool: pool, writes: writes, viewer: viewer, viewerName: name) { notice in
            onMatch(notice)
            relay.publish(notice)
        }
        let controller = try DeckController(feed: PooledFeed(writes: writes, viewer: viewer),
                                            physics: .tantan)
        return ReplViewerSession(ReplSession(controller: controller, ledger: ledger, format: .json))
    }

    public func startRelay(deliver: @escaping @Sendable (MatchNotice) -> Void) throws {
        try relay.start(deliver: deliver)
    }

    public func stopRelay() {
        relay.stop()
    }
}

/// How the writes of one serve process meet.
public enum ServedWrites: Sendable {
    /// SQLite: one writer per file. The process's writes queue here and
    /// commit in groups (`WriteQueue`) rather than meet SQLITE_BUSY (whose
    /// busy handler sleeps); other processes are covered by the busy timeout.
    case oneAtATime
    /// PostgreSQL: writers run side by side; the store's transactions and
    /// row locks decide (two mutual likes at once make exactly one match).
    case concurrent
}

/// The deck's feed for one viewer, each fetch on a borrowed database. The
/// feed's position is kept in the database (its cursors), so a fetch on
/// any connection continues where the last one stopped. A fetch may move
/// those cursors, so it counts as a write.
struct PooledFeed: ProfileFeed {
    let writes: WriteQueue
    let viewer: String

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        try writes.write { try $0.feed(viewer: viewer).nextProfiles(limit: limit, excluding: excluding) }
    }
}

/// The REPL's ledger (`StoreLedger`, discovery included) for one viewer,
/// each call on a borrowed database, writes through the write queue, and
/// each decision that completes a match reported after its commit.
struct PooledLedger: ReplLedger, DiscoveryLedger {
    let pool: DatabasePool
    let writes: WriteQueue
    let viewer: String
    let viewerName: String?
    let onMatch: @Sendable (MatchNotice) -> Void

    private func read<T>(_ body: (StoreLedger) throws -> T) throws -> T {
        try pool.withDatabase { try body(StoreLedger(store: $0, viewer: viewer)) }
    }

    private func write<T>(_ body: @escaping (StoreLedger) throws -> T) throws -> T {
        try writes.write { [viewer] in try body(StoreLedger(store: $0, viewer: viewer)) }
    }

    func record(_ decision: DeckDecision) throws -> LedgerReceipt {
        let receipt = try write { try $0.record(decision) }
        if receipt.isMatch {
            onMatch(MatchNotice(recipient: decision.profile.id, liker: viewer, likerName: viewerName,
                                matchedAt: receipt.decidedAt))
        }
        return receipt
    }

    func undo(_ decision: DeckDecision) throws { try write { try $0.undo(decision) } }
    func history(about profile: String?) throws -> [LedgerEntry] { try read { try $0.history(about: profile) } }
    func matches() throws -> [LedgerMatch] { try read { try $0.matches() } }

    func viewerProfile() throws -> Profile { try read { try $0.viewerProfile() } }
    func setPreferences(_ change: PreferencesChange) throws -> Profile { try write { try $0.setPreferences(change) } }
    func eligible(among ids: [String]) throws -> Set<String> { try read { try $0.eligible(among: ids) } }
    func block(_ id: String) throws -> BlockOutcome { try write { try $0.block(id) } }
    func unblock(_ id: String) throws { try write { try $0.unblock(id) } }
    func unmatch(_ id: String) throws { try write { try $0.unmatch(id) } }
    func report(_ id: String, reason: String) throws -> BlockOutcome { try write { try $0.report(id, reason: reason) } }
    func likes() throws -> [Liker] { try read { try $0.likes() } }
}
