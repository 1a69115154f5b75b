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
public final class SQLiteFeed: ProfileFeed {
    private let store: SQLiteStore
    private let viewerKey: Int
    /// The viewer's external id.
    public let viewer: String
    /// Boxes covering at most this many cells are walked by cell (nil: 64);
    /// tests and the benchmark's scan set 0 to force the walk by key.
    private let cellLimit: Int?
    /// One prepared `DiscoverySQL.inCell` per cell being merged: the cache
    /// holds one statement per SQL text, and the merge steps several at once.
    private var cellStatements: [Statement] = []
    /// The ranking's window: eligible profiles in key order from the cursor,
    /// and the most recently active profiles looked at.
    private let window: Int
    private let recentWindow: Int
    /// What time it is (tests fix it).
    private let clock: () -> Date
    /// Whether this feed stamped its viewer active yet.
    private var stamped = false
    /// Whether fetches write (activity, impressions): off for a replay that only looks.
    private let records: Bool
    /// The reasons of the cards this feed dealt, by id (`why`).
    public private(set) var reasons: [String: [String]] = [:]
    /// The ranked window being dealt and the impressions not counted yet
    /// (README "Ranking"): the feed's own, or one a server keeps across fetches.
    private let memory: Ranking.FeedMemory
    private var batch: Ranking.Batch {
        get { memory.batch }
        _modify { yield &memory.batch }
    }
    /// How many fetches read and ranked a window (the benchmark splits the next card by it).
    package private(set) var refills = 0

    /// A feed for `viewer`, who must be a profile.
    public convenience init(store: SQLiteStore, viewer: String) throws {
        try self.init(store: store, viewer: viewer, cellLimit: nil)
    }

    /// With `cellLimit` (tests and swipe-bench walk by key with 0), the
    /// ranking's window sizes, whether fetches write (a replay only looks),
    /// and the clock (tests fix it).
    package init(
        store: SQLiteStore, viewer: String, cellLimit: Int?, window: Int = Ranking.window,
        recentWindow: Int = Ranking.recentWindow, records: Bool = true, clock: @escaping () -> Date = Date.init,
        memory: Ranking.FeedMemory = Ranking.FeedMemory()
    ) throws {
        self.memory = memory
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        self.viewer = viewer
        self.viewerKey = key
        self.cellLimit = cellLimit
        self.window = window
        self.recentWindow = recentWindow
        self.records = records
        self.clock = clock
    }

    /// The impressions not counted yet are counted when the feed goes away
    /// (a failure here loses only those counts: they steer exposure, nothing else).
    deinit { try? countImpressions() }

    /// `nextProfiles` with each card's reasons (`why`).
    public func nextCards(limit: Int, excluding: Set<String>) throws -> [Discovery.DealtCard] {
        try nextProfiles(limit: limit, excluding: excluding).map {
            Discovery.DealtCard(profile: $0, reasons: reasons[$0.id] ?? [])
        }
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
            if batch.holds(for: me.profile) {
                let taken = try batch.deal(need: limit - likers.profiles.count) {
                    excluding.contains($0.profile.id) || likers.keys.contains($0.key)
                } check: { candidate in
                    try connection.statement(DiscoverySQL.one).bind(me.parameters(.int(candidate.key)))
                        .first { try Profile(row: $0) }.flatMap { me.accepts($0) ? $0 : nil }
                }
                for (candidate, profile) in taken {
                    likers.profiles.append(profile)
                    likers.keys.append(candidate.key)
                    reasons[profile.id] = Ranking.reasons(
                        viewer: me.profile, candidate: profile, stats: candidate.stats, liker: nil, now: likers.now)
                }
                if likers.profiles.count >= limit { return dealt(likers.profiles, keys: likers.keys) }
            }
            // The ranking counts every card dealt so far, this fetch's too.
            _ = dealt(likers.profiles, keys: likers.keys)
            if !memory.uncounted.isEmpty { try connection.writeTransaction { try countImpressions() } }
            refills += 1
            let window = try readWindow(excluding: excluding.union(likers.profiles.map(\.id)))
            return try connection.writeTransaction {
                try deal(window, likers: likers, limit: limit, excluding: excluding)
            }
        }
    }

    /// What step 1 found: enough cards, or the likers dealt so far and the rest to rank.
    private enum Step { case done([Profile]), rank(Likers) }

    struct Likers {
        var me: DiscoveryViewer
        var profiles: [Profile] = []
        var keys: [Int] = []
        var now: Date
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
        let now = clock()
        let nowText = Timestamp.string(from: now)
        let connection = store.connection
        if records && !stamped {
            try connection.statement(
                """
                INSERT INTO rank_stats (profile, last_active_at) VALUES (?1, ?2)
                ON CONFLICT (profile) DO UPDATE SET last_active_at = max(coalesce(last_active_at, ''), excluded.last_active_at)
                """
            ).bind(.int(viewerKey), .text(nowText)).run()
            stamped = true
        }
        guard !me.seesNobody else { return .done([]) }
        var profiles: [Profile] = []
        var taken: Set<String> = []
        var likedBy: [String: Decision] = [:]
        var dealtKeys: [Int] = []
        for kind in [Decision.superlike, .like] where profiles.count < limit {
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
                    if !excluding.contains(profile.id), taken.insert(profile.id).inserted {
                        profiles.append(profile)
                        likedBy[profile.id] = kind
                        dealtKeys.append(row.int(0))
                    }
                    return profiles.count < limit
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
        for (index, profile) in profiles.enumerated() {
            let stats =
                try connection.statement(DiscoverySQL.statsOf).bind(.int(dealtKeys[index]))
                .first { Self.stats(from: $0, offset: 0) } ?? Discovery.RankStats()
            reasons[profile.id] = Ranking.reasons(
                viewer: me.profile, candidate: profile, stats: stats, liker: likedBy[profile.id], now: now)
        }
        // Likers come first, and a new like changes what the ranking knows: the next card is ranked afresh.
        if !profiles.isEmpty { batch.drop() }
        guard profiles.count < limit else { return .done(dealt(profiles, keys: dealtKeys)) }
        return .rank(Likers(me: me, profiles: profiles, keys: dealtKeys, now: now))
    }

    /// Step 2: the window, read without the write lock. The first `window`
    /// eligible after the cursor in key order (whether from one walk or
    /// merged from the cells), not counting those the deck holds or the
    /// likers just dealt; and the eligible among the most recently active.
    private func readWindow(excluding: Set<String>) throws -> Window {
        let connection = store.connection
        let me = try store.discoveryViewer(key: viewerKey)
        let now = clock()
        let myStats =
            try connection.statement(DiscoverySQL.statsOf).bind(.int(viewerKey))
            .first { Self.stats(from: $0, offset: 0) } ?? Discovery.RankStats()
        let stored = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
            .bind(.int(viewerKey)).first { $0.int(0) }
        let cursor = stored ?? 0
        var firstEligible: Int?
        var exhausted = true
        var candidates: [Int: Discovery.RankCandidate] = [:]
        var walked = 0
        let take = { (key: Int, row: Row) throws -> Bool in
            let profile = try Profile(row: row)
            guard me.accepts(profile) else { return true }
            if firstEligible == nil { firstEligible = key }
            if !excluding.contains(profile.id) {
                candidates[key] = Discovery.RankCandidate(
                    key: key, profile: profile, stats: Self.stats(from: row, offset: 15))
                walked += 1
            }
            exhausted = walked < self.window
            return exhausted
        }
        if let box = me.box, let cells = Discovery.cells(covering: box, limit: cellLimit ?? 64), !cells.isEmpty {
            try mergeCells(cells, me: me, cursor: cursor, take)
        } else {
            try connection.statement(DiscoverySQL.byKey).bind(me.parameters(.int(cursor))).forEachRowWhile { row in
                try take(row.int(0), row)
            }
        }
        let rejectedThrough =
            try firstEligible.map { $0 - 1 }
            ?? (exhausted ? connection.scalarInt("SELECT coalesce(max(key), 0) FROM profiles") ?? 0 : cursor)
        if recentWindow > 0 {
            try connection.statement(DiscoverySQL.recentlyActive).bind(me.parameters(.int(recentWindow)))
                .forEachRowWhile { row in
                    let key = row.int(0)
                    let profile = try Profile(row: row)
                    if candidates[key] == nil, me.accepts(profile), !excluding.contains(profile.id) {
                        candidates[key] = Discovery.RankCandidate(
                            key: key, profile: profile, stats: Self.stats(from: row, offset: 15))
                    }
                    return true
                }
        }
        let ranked = Ranking.order(
            viewer: me.profile, viewerStats: myStats, candidates: Array(candidates.values), now: now)
        return Window(
            me: me, ranked: ranked, cursor: cursor, cursorFound: stored != nil, rejectedThrough: rejectedThrough)
    }

    /// Step 3: the new batch's best cards that are still eligible now, dealt
    /// after the likers; the cursor moved if nothing lowered it meanwhile.
    /// The likers' and the batch's cards dealt before it were counted already.
    private func deal(_ window: Window, likers: Likers, limit: Int, excluding: Set<String>) throws -> [Profile] {
        let connection = store.connection
        var profiles = likers.profiles, keys = likers.keys
        let me = try store.discoveryViewer(key: viewerKey)
        batch.fill(window.ranked, for: window.me.profile)
        let taken = try batch.deal(need: limit - profiles.count) {
            excluding.contains($0.profile.id) || keys.contains($0.key)
        } check: { candidate in
            try connection.statement(DiscoverySQL.one).bind(me.parameters(.int(candidate.key)))
                .first { try Profile(row: $0) }.flatMap { me.accepts($0) ? $0 : nil }
        }
        for (candidate, now) in taken {
            profiles.append(now)
            keys.append(candidate.key)
            reasons[now.id] = Ranking.reasons(
                viewer: me.profile, candidate: now, stats: candidate.stats, liker: nil, now: likers.now)
        }
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
        _ = dealt([], keys: Array(keys.dropFirst(likers.keys.count)))
        return profiles
    }

    /// Notes the impressions of dealt cards, to be counted in bulk (`countImpressions`).
    private func dealt(_ profiles: [Profile], keys: [Int]) -> [Profile] {
        memory.noteDealt(keys, recording: records)
        return profiles
    }

    /// Counts the impressions noted since the last count, in one statement:
    /// each dealt profile's 24-hour count (a new window when its last one is
    /// over) and total, a profile dealt twice counted twice.
    private func countImpressions() throws {
        guard let pending = memory.pendingImpressions(at: clock()) else { return }
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
        memory.impressionsCounted()
    }

    /// The ranking's columns (`DiscoverySQL.stats`) from `offset` on; NULLs (no row) read as zero and never.
    static func stats(from row: Row, offset: Int32) -> Discovery.RankStats {
        Discovery.RankStats(
            given: row.int(offset), givenLikes: row.int(offset + 1), received: row.int(offset + 2),
            receivedLikes: row.int(offset + 3), lastActiveAt: row.isNull(offset + 4) ? nil : row.text(offset + 4),
            dealtSince: row.isNull(offset + 5) ? nil : row.text(offset + 5), dealt: row.int(offset + 6),
            dealtTotal: row.int(offset + 7))
    }

    /// Reads the cells' ranges after `cursor` as one sequence in key order:
    /// each cell's statement is stepped only when its row is the smallest
    /// key waiting, and `take` says when to stop.
    private func mergeCells(
        _ cells: [Int], me: DiscoveryViewer, cursor: Int, _ take: (Int, Row) throws -> Bool
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
            guard try take(heads[next]!, statement.row) else { return }
            heads[next] = try statement.step() ? statement.row.int(0) : nil
        }
    }
}
