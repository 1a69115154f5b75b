import Foundation
import SwipeCore
import SwipeStore

/// The deck's feed from the database (README "Discovery"): exactly the
/// profiles the viewer may be shown, both ways, never the viewer, never a
/// card already in the deck; first those holding a standing superlike of the
/// viewer, then a standing like, each oldest first; then everyone else in
/// internal-key order.
///
/// Each fetch is index searches (`DiscoverySQL`, plans held by tests): the
/// likers are one range of `decisions_likers`; the rest walk the profiles by
/// key from the viewer's stored cursor (`feed_cursors`: every key at or
/// below it is decided, blocked or not eligible). A viewer with a distance
/// box walks instead the few 1-degree cells that cover it, each a range of
/// `profiles_cell` in key order, merged as they are read, so a small town
/// costs what its few candidates cost. The fetch advances the cursor past the
/// run it rejected, and whatever can make a rejected profile eligible again
/// lowers it, so the next card costs the same after 200k decisions as after none.
///
/// The ranked window is dealt from in batches (`Ranking.Batch`): ranked once,
/// then each next card is the batch's next one still eligible (one lookup by
/// key), until the batch is used up or a liker comes. The impressions are
/// counted in bulk: those dealt since the last count, when the next window is
/// ranked (so the ranking sees them) and when the feed goes away.
///
/// What both backends' feeds do with the rows is written once in SwipeStore:
/// the likers picked (`Ranking.LikerPick`), the window gathered, its cursor
/// move found and ranked (`Ranking.CandidateWindow`), the batch dealt
/// (`Ranking.FeedDealer`). This file keeps how SQLite finds the rows and the
/// three transactions it reads and writes them in.
public final class SQLiteFeed: ProfileFeed {
    private let store: SQLiteStore
    private let viewerKey: Int
    /// The viewer's external id.
    public let viewer: String
    /// One prepared `DiscoverySQL.inCell` per cell being merged: the cache
    /// holds one statement per SQL text, and the merge steps several at once.
    private var cellStatements: [Statement] = []
    /// The batch, the reasons and the impressions (`Ranking.FeedDealer`).
    package let dealer: Ranking.FeedDealer
    private var options: Ranking.FeedOptions { dealer.options }

    /// A feed for `viewer`, who must be a profile, read and dealt as
    /// `options` say (tests and swipe-bench change them).
    public init(store: SQLiteStore, viewer: String, options: Ranking.FeedOptions = .init()) throws {
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        self.viewer = viewer
        self.viewerKey = key
        self.dealer = Ranking.FeedDealer(options: options)
    }

    /// The impressions not counted yet are counted when the feed goes away
    /// (a failure here loses only those counts: they steer exposure, nothing
    /// else), unless the memory's owner counts them (a server's deck).
    deinit { if dealer.countsOnClose { try? dealer.countImpressions(count) } }

    /// Counts the impressions noted and not counted yet (a write: the
    /// caller holds the write lock, or is in a write transaction).
    public func countImpressions() throws { try dealer.countImpressions(count) }

    /// The next cards without a write, when the fetch needs none: the viewer
    /// already stamped active, no standing like or superlike of the viewer
    /// beyond the likers' cursors (a liker is dealt first, and passing one
    /// moves a cursor), and `limit` cards still eligible in the batch. Read in
    /// one read transaction (BEGIN DEFERRED: no write lock, so a server's
    /// writer is neither waited for nor held up). Nil when the fetch must
    /// write: `nextProfiles` then does it all. The impressions are noted, to
    /// be counted by the next fetch that writes or by the memory's owner.
    public func nextProfilesWithoutWriting(limit: Int, excluding: Set<String>) throws -> [Profile]? {
        guard limit > 0 else { return [] }
        let connection = store.connection
        guard !connection.isInTransaction else { return nil }
        try connection.execute("BEGIN DEFERRED")
        do {
            let dealt = try dealWithoutWriting(limit: limit, excluding: excluding)
            try connection.execute("COMMIT")
            return dealt
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func dealWithoutWriting(limit: Int, excluding: Set<String>) throws -> [Profile]? {
        let me = try store.discoveryViewer(key: viewerKey)
        let connection = store.connection
        for kind in [Decision.superlike, .like] {
            let position =
                try connection.statement(
                    """
                    SELECT after_at, after_key FROM liker_cursors WHERE viewer = ?1 AND decision = ?2
                    """
                ).bind(.int(viewerKey), .text(kind.rawValue)).first { ($0.text(0), $0.int(1)) } ?? ("", 0)
            var waiting = false
            try connection.statement(DiscoverySQL.likers)
                .bind(me.parameters(.text(kind.rawValue)) + [.text(position.0), .int(position.1)]).forEachRowWhile {
                    _ in
                    waiting = true
                    return false
                }
            if waiting { return nil }
        }
        if me.seesNobody { return nil }
        return try dealer.wholeFromBatch(viewer: me.profile, need: limit) {
            excluding.contains($0.profile.id)
        } check: {
            try check($0, me)
        }?.map(\.profile)
    }

    /// Three steps, so that the write lock is held only for what writes:
    ///
    /// 1. In a write transaction (BEGIN IMMEDIATE, or a savepoint inside the
    ///    caller's): the viewer stamped active, the likers read and their
    ///    cursors moved (another process cannot make a liker eligible between
    ///    the walk passing it and the cursor moving past it).
    /// 2. Without the lock: the batch's next cards, each checked eligible now
    ///    by key (`DiscoverySQL.one`); when it is used up, the impressions
    ///    counted so far, and the ranking's window read and ranked.
    /// 3. In a write transaction again (only after a new ranking): each card
    ///    chosen checked eligible now before it is dealt, and the feed's
    ///    cursor moved only if no write lowered it since step 2 read it
    ///    (compare and set): a profile made eligible meanwhile is never passed.
    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        let connection = store.connection
        switch try connection.writeTransaction({ try fetch(limit: limit, excluding: excluding) }) {
        case .done(let profiles):
            return profiles
        case .rank(var likers):
            let me = likers.me
            let queued = try dealer.fromBatch(viewer: me.profile, need: limit - likers.profiles.count) {
                excluding.contains($0.profile.id) || likers.keys.contains($0.key)
            } check: {
                try check($0, me)
            }
            likers.profiles += queued.map(\.profile)
            likers.keys += queued.map(\.key)
            if likers.profiles.count >= limit {
                dealer.noteDealt(likers.keys)
                return likers.profiles
            }
            // The ranking counts every card dealt so far, this fetch's too.
            dealer.noteDealt(likers.keys)
            if dealer.hasUncounted { try connection.writeTransaction { try dealer.countImpressions(count) } }
            let window = try readWindow(excluding: excluding.union(likers.profiles.map(\.id)))
            return try connection.writeTransaction {
                try deal(window, likers: likers, limit: limit, excluding: excluding)
            }
        }
    }

    /// A card of the batch as stored now, if `me` may still be shown it (one lookup by key).
    private func check(_ candidate: Discovery.RankCandidate, _ me: DiscoveryViewer) throws -> Profile? {
        try store.connection.statement(DiscoverySQL.one).bind(me.parameters(.int(candidate.key)))
            .first { try Profile(row: $0) }.flatMap { me.accepts($0) ? $0 : nil }
    }

    /// Counts the impressions in one statement: each dealt profile's 24-hour
    /// count (a new window when its last one is over) and total, a profile
    /// dealt twice counted twice.
    private func count(_ pending: Ranking.PendingImpressions) throws {
        try store.connection.statement(
            """
            INSERT INTO rank_stats (profile, dealt_since, dealt, dealt_total)
            SELECT value, ?2, count(*), count(*) FROM json_each(?1) WHERE true GROUP BY value
            ON CONFLICT (profile) DO UPDATE SET
                dealt = CASE WHEN dealt_since IS NULL OR dealt_since <= ?3 THEN excluded.dealt ELSE dealt + excluded.dealt END,
                dealt_since = CASE WHEN dealt_since IS NULL OR dealt_since <= ?3 THEN ?2 ELSE dealt_since END,
                dealt_total = dealt_total + excluded.dealt_total
            """
        ).bind(.text(pending.keys), .text(pending.now), .text(pending.windowStart)).run()
    }

    /// What step 1 found: enough cards, or the likers dealt so far and the rest to rank.
    private enum Step { case done([Profile]), rank(Likers) }

    struct Likers {
        var me: DiscoveryViewer
        var profiles: [Profile] = []
        var keys: [Int] = []
    }

    /// The window of step 2, ranked, and the cursor move it found.
    private struct Window {
        var me: DiscoveryViewer
        var ranked: [Discovery.RankCandidate]
        var cursor: Int
        var cursorFound: Bool
        var rejectedThrough: Int
    }

    private func fetch(limit: Int, excluding: Set<String>) throws -> Step {
        let me = try store.discoveryViewer(key: viewerKey)
        let now = dealer.now()
        let nowText = Timestamp.string(from: now)
        let connection = store.connection
        try dealer.stampOnce {
            try connection.statement(
                """
                INSERT INTO rank_stats (profile, last_active_at) VALUES (?1, ?2)
                ON CONFLICT (profile) DO UPDATE SET last_active_at = max(coalesce(last_active_at, ''), excluded.last_active_at)
                """
            ).bind(.int(viewerKey), .text(nowText)).run()
        }
        guard !me.seesNobody else { return .done([]) }
        var pick = Ranking.LikerPick(limit: limit, held: excluding)
        for kind in [Decision.superlike, .like] where !pick.isFull {
            let position =
                try connection.statement(
                    """
                    SELECT after_at, after_key FROM liker_cursors WHERE viewer = ?1 AND decision = ?2
                    """
                ).bind(.int(viewerKey), .text(kind.rawValue)).first { ($0.text(0), $0.int(1)) } ?? ("", 0)
            // The last like passed before the first eligible one: the new position.
            var rejectedThrough: (at: String, key: Int)?
            var sawEligible = false
            try connection.statement(DiscoverySQL.likers)
                .bind(me.parameters(.text(kind.rawValue)) + [.text(position.0), .int(position.1)]).forEachRowWhile {
                    row in
                    let profile = try Profile(row: row)
                    guard row.int(17) == 1, me.accepts(profile) else {
                        if !sawEligible { rejectedThrough = (row.text(15), row.int(16)) }
                        return true
                    }
                    sawEligible = true
                    return pick.offer(profile, key: row.int(0))
                }
            if let rejectedThrough {
                try connection.statement(
                    """
                    INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (viewer, decision) DO UPDATE SET after_at = excluded.after_at, after_key = excluded.after_key
                    """
                ).bind(.int(viewerKey), .text(kind.rawValue), .text(rejectedThrough.at), .int(rejectedThrough.key))
                    .run()
            }
        }
        dealer.likersDealt(pick.profiles.count)
        guard !pick.isFull else {
            dealer.noteDealt(pick.keys)
            return .done(pick.profiles)
        }
        return .rank(Likers(me: me, profiles: pick.profiles, keys: pick.keys))
    }

    /// Step 2: the window, read without the write lock. The first `window`
    /// eligible after the cursor in key order (whether from one walk or
    /// merged from the cells), not counting those the deck holds or the
    /// likers just dealt; and the eligible among the most recently active.
    private func readWindow(excluding: Set<String>) throws -> Window {
        let connection = store.connection
        let me = try store.discoveryViewer(key: viewerKey)
        let now = dealer.now()
        let myStats = try Discovery.RankStats.read(key: viewerKey, on: connection)
        let stored = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
            .bind(.int(viewerKey)).first { $0.int(0) }
        var window = Ranking.CandidateWindow(viewer: me, cursor: stored ?? 0, size: options.window, held: excluding)
        if let box = me.box, let cells = Discovery.cells(covering: box, limit: options.cellLimit ?? 64), !cells.isEmpty
        {
            try mergeCells(cells, me: me, cursor: window.cursor) { try window.walk($0) }
        } else {
            try connection.statement(DiscoverySQL.byKey).bind(me.parameters(.int(window.cursor))).forEachRowWhile {
                try window.walk($0)
            }
        }
        let rejectedThrough = try window.rejectedThrough {
            try connection.scalarInt("SELECT coalesce(max(key), 0) FROM profiles") ?? 0
        }
        if options.recentWindow > 0 {
            try connection.statement(DiscoverySQL.recentlyActive).bind(me.parameters(.int(options.recentWindow)))
                .forEachRow { try window.addRecent($0) }
        }
        let ranked = try window.ranked(
            viewerStats: myStats, now: now, model: options.model, reads: ledgerReads, cache: options.memory.market
        ) {
            try connection.statement(DiscoverySQL.marketSample).bind(.int(options.model.marketSample)).map {
                try Ranking.Market.Row(row: $0)
            }
        }
        return Window(
            me: me, ranked: ranked, cursor: window.cursor, cursorFound: stored != nil,
            rejectedThrough: rejectedThrough)
    }

    /// Step 3: the new batch's best cards that are still eligible now, dealt
    /// after the likers; the cursor moved if nothing lowered it meanwhile.
    /// The likers' and the batch's cards dealt before it were counted already.
    private func deal(_ window: Window, likers: Likers, limit: Int, excluding: Set<String>) throws -> [Profile] {
        let connection = store.connection
        var profiles = likers.profiles
        let keys = likers.keys, me = try store.discoveryViewer(key: viewerKey)
        let taken = try dealer.refill(
            window.ranked, viewer: window.me.profile, need: limit - profiles.count
        ) {
            excluding.contains($0.profile.id) || keys.contains($0.key)
        } check: {
            try check($0, me)
        }
        profiles += taken.map(\.profile)
        if window.rejectedThrough > window.cursor {
            let stored = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
                .bind(.int(viewerKey)).first { $0.int(0) }
            if stored == (window.cursorFound ? window.cursor : nil) {
                try connection.statement(
                    """
                    INSERT INTO feed_cursors (viewer, after_key) VALUES (?1, ?2)
                    ON CONFLICT (viewer) DO UPDATE SET after_key = excluded.after_key
                    """
                ).bind(.int(viewerKey), .int(window.rejectedThrough)).run()
            }
        }
        return profiles
    }

    /// The ledger's neighbourhood for the collaborative signals
    /// (`Ranking.LedgerReads`): per key and kind, one bounded descent of
    /// `decisions_quota` (given) or `decisions_likers` (received).
    private var ledgerReads: Ranking.LedgerReads {
        let connection = store.connection
        func read(_ sql: String, _ keys: [Int], _ kinds: [Decision], _ limit: Int, given: Bool) throws
            -> [Ranking.Edge]
        {
            var edges: [Ranking.Edge] = []
            for key in keys {
                for kind in kinds {
                    try connection.statement(sql).bind(.int(key), .text(kind.rawValue), .int(limit)).forEachRow {
                        edges.append(Ranking.Edge(key, $0.int(0), liked: kind != .hate, given: given))
                    }
                }
            }
            return edges
        }
        return Ranking.LedgerReads(
            given: { try read(DiscoverySQL.givenLatest, $0, $1, $2, given: true) },
            received: { try read(DiscoverySQL.receivedLatest, $0, $1, $2, given: false) })
    }

    /// Reads the cells' ranges after `cursor` as one sequence in key order:
    /// each cell's statement is stepped only when its row is the smallest
    /// key waiting, and `take` says when to stop.
    private func mergeCells(
        _ cells: [Int], me: DiscoveryViewer, cursor: Int, _ take: (Row) throws -> Bool
    ) throws {
        while cellStatements.count < cells.count {
            cellStatements.append(try Statement(connection: store.connection, sql: DiscoverySQL.inCell))
        }
        let statements = Array(cellStatements.prefix(cells.count))
        defer { for statement in statements { statement.reset() } }
        // The row each cell has ready (key and profile), nil once it is done.
        var heads: [Int?] = []
        for (statement, cell) in zip(statements, cells) {
            try statement.bind(me.parameters(.int(cursor)) + [.int(cell)])
            heads.append(try statement.step() ? statement.row.int(0) : nil)
        }
        while let next = heads.indices.filter({ heads[$0] != nil }).min(by: { heads[$0]! < heads[$1]! }) {
            let statement = statements[next]
            guard try take(statement.row) else { return }
            heads[next] = try statement.step() ? statement.row.int(0) : nil
        }
    }
}
