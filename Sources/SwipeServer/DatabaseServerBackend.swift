import SwipeCore
import SwipeSession
import SwipeStore
import Synchronization

/// What `swipe serve` needs from a store, over any swipe database
/// (`SwipeDatabase`: one SQLite file or a PostgreSQL server): the secret
/// that signs links, whether a viewer exists, one deck session per
/// WebSocket (`SocketSession`), and matches made by other serve processes.
/// Every method is synchronous and may block on I/O: the server calls them
/// on its thread pool, never on an event loop.
///
/// Sessions hold no connection of their own: each
/// store call borrows one from a small pool (`DatabasePool`) for as long as
/// the call lasts, so 10,000 open sockets need a few connections, not 10,000.
///
/// How writes meet depends on the backend (`WritePolicy`); a match made
/// here is reported to the server (which pushes it to the other viewer's
/// sockets in this process) and published on `relay` (for other processes).
public final class DatabaseServerBackend: Sendable {
    private let pool: DatabasePool
    private let writes: WriteQueue
    private let relay: any MatchRelay
    /// The ranking's market sample, read once per 10 s for all of this process's decks.
    private let marketCache = Ranking.MarketCache()
    /// Where the data is, for messages (a path, or a URI without its password).
    public let location: String
    /// The database's photo secret, which photo grants are made with (`PhotoGrant`).
    let photoSecret: String

    /// - Parameters:
    ///   - writes: `.oneAtATime` for SQLite, `.concurrent` for PostgreSQL.
    ///   - connections: at most this many databases open at once.
    ///   - open: opens the existing database (never creates it); called once
    ///     now, so a missing or unreachable database fails here, and then
    ///     whenever the pool needs another connection.
    public init(
        writes: WritePolicy, connections: Int = 8, relay: any MatchRelay = LocalMatchRelay(),
        open: @escaping @Sendable () throws -> any SwipeDatabase
    ) throws {
        pool = DatabasePool(capacity: max(1, connections), open: open)
        self.writes = WriteQueue(pool: pool, grouped: writes == .oneAtATime)
        self.relay = relay
        location = try pool.withDatabase { $0.location }
        photoSecret = try pool.withDatabase { try $0.makePhotoSecret() }
    }

    /// How many connections the pool has open right now.
    public var openConnections: Int { pool.openCount }

    /// Runs `body` on a database borrowed from the pool, for reading: how
    /// the server asks the store anything that needs no rule of its own
    /// here (sign-in states, the change log, the secret as stored now).
    public func reading<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T {
        try pool.withDatabase(body)
    }

    /// The database's link secret, created if missing.
    public func accessSecret() throws -> String {
        try writes.write { database in
            guard let secret = try database.accessSecret(create: true) else {
                throw DatabaseOpenError.missing(path: database.location)
            }
            return secret
        }
    }

    /// Whether the database can be opened and answers a query now
    /// (`/healthz`), on a connection of its own.
    public func isReachable() -> Bool {
        (try? pool.withFreshDatabase { try $0.isProfile("") }) != nil
    }

    /// How many group commits the writers have made (`/metrics`).
    public var commitBatches: Int { writes.batches }

    /// Voids every sign-in link of `viewer` (the page's Sign out).
    public func revokeSignIns(viewer: String) throws {
        try writes.write { try $0.revokeSignIns(viewer: viewer) }
    }

    /// The stored photo `id` as `viewer` may load it (nil: none, or one the
    /// viewer may not see); without its bytes when one of `current` (the
    /// client's ETags, `*` for any) is its hash.
    ///
    /// A viewer sees the photos of those the page has shown them
    /// (Documentation/Photos.md): their own, their matches', their likers',
    /// and any whose path came to them with a card or a detail page, its
    /// `grant` (`PhotoGrant`) made for them. Never across a block. Anyone
    /// else's photo is answered as one that does not exist, path or not;
    /// and nobody's preferences change the answer (they would be read back).
    public func servedPhoto(id: String, viewer: String, grant: String?, unlessAnyOf current: [String]) throws
        -> ServedPhoto?
    {
        let granted = grant.map { PhotoGrant.isValid($0, secret: photoSecret, viewer: viewer, photo: id) } ?? false
        return try pool.withDatabase { database in
            // The bytes are not even read when the client's first tag is current.
            let first = current.first { $0.utf8.count == 64 }
            guard var photo = try database.servedPhoto(id: id, viewer: viewer, unlessSHA256: first) else {
                return nil
            }
            guard granted || photo.isKnownToViewer else { return nil }
            if current.contains("*") || current.contains(photo.sha256) { photo.bytes = nil }
            return photo
        }
    }

    /// Adds an uploaded photo (`POST /photos`, already checked and
    /// stripped) at the end of `viewer`'s photos, by the rule `me photo
    /// add` uses (`ViewerScope.changePhotos`), through the write queue;
    /// returns the profile as stored.
    ///
    /// - Throws: `StoreError.photoRefused` (`.tooMany`, `.duplicate`), `.unknownProfile`.
    public func addPhoto(_ photo: PhotoBytes, viewer: String) throws -> Profile {
        try ViewerScope(viewer: viewer, access: PooledAccess(pool: pool, writes: writes)).changePhotos(
            .add(.bytes(photo)))
    }

    /// Everything the store holds about `viewer` (`GET /me/export`), by the
    /// rule `swipe export` and `me export` use (`ViewerScope`), through the
    /// write queue as that rule takes the viewer's lock.
    ///
    /// - Throws: `StoreError.unknownProfile`.
    public func exportPersonalData(viewer: String) throws -> PersonalExport {
        try ViewerScope(viewer: viewer, access: PooledAccess(pool: pool, writes: writes)).exportPersonalData()
    }

    /// Which of `ids` are profiles now (the others were erased), each by its key.
    public func existingProfiles(among ids: some Sequence<String>) throws -> Set<String> {
        try pool.withDatabase { database in Set(try ids.filter { try database.isProfile($0) }) }
    }

    /// A new deck session for `viewer`. `onEvent` is told, on the session's
    /// thread, what each of its stored writes did that others must hear of
    /// (`StoreEvent`), so the server can tell them; a match is also
    /// published on the relay, for other processes. `mayChangePreferences`
    /// rations the viewer's changes of preferences; `internalFailure` words
    /// a failure of the store for the client (and logs it), nil to tell it
    /// as it is.
    public func openSession(
        viewer: String, onEvent: @escaping @Sendable (StoreEvent) -> Void = { _ in },
        mayChangePreferences: @escaping @Sendable () -> Bool = { true },
        internalFailure: (@Sendable (any Error) -> String)? = nil
    ) throws -> SocketSession {
        let me = try pool.withDatabase { try $0.viewerProfile(viewer) }
        let relay = relay
        let scope = ViewerScope(
            viewer: viewer, access: PooledAccess(pool: pool, writes: writes), name: me.name
        ) { event in
            onEvent(event)
            if case .matched(let notice) = event { relay.publish(notice) }
        }
        let feed = PooledFeed(
            pool: pool, writes: writes, viewer: viewer,
            memory: Ranking.FeedMemory(countedByOwner: true, market: marketCache))
        var repl = try ReplSession(feed: feed, ledger: scope, format: .json)
        repl.internalFailure = internalFailure
        // A page uploads its photos: a path it sent would name a file on this server.
        repl.readsPhotoFiles = false
        // Nor may it name a file to write there: `me export` answers the document.
        repl.writesFiles = false
        // Whom the page may know as matches: told if one of them is erased elsewhere.
        let partners = try scope.matches().map(\.profile)
        let secret = photoSecret
        let (isModerator, warnings) = try pool.withDatabase {
            (try $0.isModerator(viewer), try $0.pendingWarnings(viewer: viewer))
        }
        let session = SocketSession(
            repl, place: me.location, viewerName: me.name, isModerator: isModerator, warnings: warnings,
            photoPath: { PhotoGrant.path($0, secret: secret, viewer: viewer) },
            mayChangePreferences: mayChangePreferences,
            onClose: { feed.countImpressions() })
        session.notePartners(partners)
        return session
    }

    /// Starts calling `deliver` with each match another process makes
    /// (`MatchRelay`), until `stopRelay`.
    public func startRelay(deliver: @escaping @Sendable (MatchNotice) -> Void) throws {
        try relay.start(deliver: deliver)
    }

    public func stopRelay() {
        relay.stop()
    }
}

/// The deck's feed for one viewer, each fetch on a borrowed database. The
/// feed's position is kept in the database (its cursors), so a fetch on
/// any connection continues where the last one stopped. The ranked batch it
/// deals from is kept here, across fetches (`Ranking.FeedMemory`), and so are
/// the impressions until a new ranking counts them or the deck closes
/// (`countImpressions`).
///
/// Most cards need no write: the next card of the batch, checked by key,
/// with no liker waiting (`SwipeDiscovery.dealWithoutWriting`). Those are
/// read on a borrowed connection beside the writer, so a like waits for
/// SQLite's one writer once (its decision), not twice. A fetch that may
/// write (a liker dealt or passed, a new ranking and its cursor, the first
/// fetch's stamp) goes through the write queue as before.
struct PooledFeed: ProfileFeed {
    let pool: DatabasePool
    let writes: WriteQueue
    let viewer: String
    /// The deck's batch and impressions, with the process's shared market sample.
    let memory: Ranking.FeedMemory

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        let memory = memory
        if let dealt = try pool.withDatabase({
            try $0.dealWithoutWriting(viewer: viewer, memory: memory, limit: limit, excluding: excluding)
        }) {
            return dealt
        }
        return try writes.write {
            try $0.feed(viewer: viewer, memory: memory).nextProfiles(limit: limit, excluding: excluding)
        }
    }

    /// Counts the impressions the deck's cards made and no ranking counted
    /// yet: when the socket closes. A failure loses only those counts (they
    /// steer exposure, nothing else).
    func countImpressions() {
        let memory = memory
        try? writes.write { try $0.countImpressions(viewer: viewer, memory: memory) }
    }
}

/// A viewer scope's way to the database in a server: reads on a borrowed
/// connection, writes through the write queue (group commit on SQLite).
struct PooledAccess: DatabaseAccess {
    let pool: DatabasePool
    let writes: WriteQueue

    func read<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T {
        try pool.withDatabase(body)
    }

    func write<T>(_ body: @escaping (any SwipeDatabase) throws -> T) throws -> T {
        try writes.write(body)
    }
}
