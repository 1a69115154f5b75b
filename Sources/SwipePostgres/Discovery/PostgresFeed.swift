import Foundation
import SwipeCore
import SwipeStore

/// The deck's feed from PostgreSQL (README "Discovery"), the twin of
/// SQLite's `SQLiteFeed`, dealing the same sequence from the same data:
/// exactly the profiles the viewer may be shown, both ways, never the
/// viewer, never a card already in the deck; first those holding a standing
/// superlike of the viewer, then a standing like, each oldest first; then
/// everyone else in the ranking's order (`Ranking`, README "Ranking"), from
/// the same window as SQLite's feed reads: the first `window` eligible after
/// the cursor in key order and the eligible among the `recentWindow` most
/// recently active; the viewer stamped active and the impressions counted as there.
///
/// Each fetch is a few index searches (`PostgresDiscoverySQL`), each
/// returning at most the rows it needs (a `LIMIT` that grows only when the
/// exact distance test turns rows down): the likers are one range of
/// `decisions_likers_key`; the rest walk the profiles by key from the
/// viewer's stored cursor (`feed_cursors`, shared with SQLite's meaning:
/// every key at or below it is decided, blocked or not eligible). A viewer
/// with a distance box walks instead the few 1-degree cells that cover it,
/// per cell a range of `profiles_cell_key` (cell, key), merged by key in the
/// query. The fetch advances the cursors past what it rejected; whatever can
/// make a rejected profile eligible again (undo, unblock, a change of
/// preferences, an import) must lower them, as on SQLite.
///
/// As there, the ranked window is dealt from in batches (`Ranking.Batch`):
/// each next card is the batch's next one still eligible, one lookup by key
/// (`PostgresDiscoverySQL.one`), until the batch is used up or a liker comes;
/// the first card looked at rides with the viewer's read in one statement
/// (`feedStateAndNext`), so a card from the batch costs one round trip;
/// and the impressions are counted in bulk, before the next window is
/// ranked and when the feed goes away.
///
/// What it does with the rows is SQLite's, written once in SwipeStore
/// (`Ranking.LikerPick`, `Ranking.CandidateWindow`, `Ranking.FeedDealer`);
/// this file keeps how PostgreSQL finds them, in as few round trips as it can.
public final class PostgresFeed: ProfileFeed {
    private let connection: PGConnection
    /// The viewer's external id.
    public let viewer: String
    /// The batch, the reasons and the impressions (`Ranking.FeedDealer`).
    package let dealer: Ranking.FeedDealer
    private var options: Ranking.FeedOptions { dealer.options }
    /// Whether each fetch leaves the next one's first read to ride with the next write.
    private let readsAhead: Bool

    /// A feed for `viewer`, who must be a profile, read and dealt as
    /// `options` say (tests and swipe-bench change them).
    ///
    /// - Throws: `ViewerError.notAProfile` when there is no such profile.
    ///
    /// With `readsAhead` each fetch leaves the next one's first read to ride
    /// with the next write on `connection` (`PGConnection+ReadAhead.swift`):
    /// for a feed that has the connection to itself, whose next write is its
    /// deck's decision (a REPL's; never a server's pooled connection).
    public init(
        connection: PGConnection, viewer: String, options: Ranking.FeedOptions = .init(), readsAhead: Bool = false
    ) throws {
        guard let me = try PostgresDiscoveryViewer.read(connection, id: viewer) else {
            throw ViewerError.notAProfile(viewer)
        }
        self.connection = connection
        self.viewer = viewer
        self.dealer = Ranking.FeedDealer(options: options)
        self.readsAhead = readsAhead
        dealer.viewerKey = me.key
    }

    /// A feed over a server's deck memory, for one fetch, without the round
    /// trip that checks the viewer first: the fetch reads the viewer's row
    /// anyway (`FeedState`) and throws `ViewerError.notAProfile` there.
    package init(unchecked connection: PGConnection, viewer: String, memory: Ranking.FeedMemory) {
        self.connection = connection
        self.viewer = viewer
        self.dealer = Ranking.FeedDealer(options: .init(memory: memory))
        self.readsAhead = false
    }

    /// The impressions not counted yet are counted when the feed goes away
    /// (a failure here loses only those counts: they steer exposure, nothing
    /// else), unless the memory's owner counts them (a server's deck).
    deinit { if dealer.countsOnClose { try? countImpressions() } }

    /// The next cards without a write, when the fetch needs none: the viewer
    /// already stamped active, no standing like or superlike of the viewer
    /// beyond the likers' cursors (`FeedState` says so in its one round
    /// trip), and `limit` cards still eligible in the batch (one lookup by
    /// key each). Nil when the fetch must write: `nextProfiles` then does it
    /// all. The impressions are noted, to be counted by the next fetch that
    /// ranks or by the memory's owner.
    public func nextProfilesWithoutWriting(limit: Int, excluding: Set<String>) throws -> [Profile]? {
        guard limit > 0 else { return [] }
        guard let state = try FeedState.read(connection, viewer: viewer) else { throw ViewerError.notAProfile(viewer) }
        let me = state.viewer
        guard !me.seesNobody, !state.superlikers.waiting, !state.likers.waiting else { return nil }
        return try dealer.wholeFromBatch(viewer: me.profile, need: limit) {
            excluding.contains($0.profile.id)
        } check: { candidate in
            try connection.statement(PostgresDiscoverySQL.one).first(me.arguments(.int(candidate.key))) {
                try PostgresProfileRow.profile($0)
            }.flatMap { me.accepts($0) ? $0 : nil }
        }?.map(\.profile)
    }

    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        let dealt = try deal(limit: limit, excluding: excluding)
        if readsAhead { readAheadTheNextCard(holding: excluding.union(dealt.map(\.id))) }
        return dealt
    }

    /// Leaves the next fetch's first read (the viewer's state with the
    /// batch's next card, one the deck does not hold) to ride with the next
    /// write on the connection, the deck's decision
    /// (`PGConnection+ReadAhead.swift`). A fetch that then asks for the same
    /// read takes its answer; any other finds none and reads as usual.
    private func readAheadTheNextCard(holding: Set<String>) {
        guard let viewerKey = dealer.viewerKey, let next = dealer.upNext(skip: { holding.contains($0.profile.id) })
        else { return }
        let arguments = PostgresDiscoveryViewer(key: viewerKey, profile: next.viewer).arguments(
            .int(next.candidate.key))
        // Prepared now if this session has not yet (the deck's first fetch
        // reads the viewer alone): a read ahead goes only as a prepared statement.
        guard (try? connection.statement(PostgresDiscoverySQL.feedStateAndNext)) != nil else { return }
        lastReadAhead = arguments
        connection.readWithNextWrite(PostgresDiscoverySQL.feedStateAndNext, arguments)
    }

    /// The arguments of the read last left to ride ahead.
    private var lastReadAhead: [PostgresValue]?

    /// An undo's write took the read ahead with it, and no fetch follows (the
    /// card comes back): the same read is left again for the decision after
    /// it (the batch's next card is still the one the deck does not hold).
    public func deckDidRecord(_ action: DeckAction) {
        guard readsAhead, case .unrecord = action, let lastReadAhead else { return }
        connection.readWithNextWrite(PostgresDiscoverySQL.feedStateAndNext, lastReadAhead)
    }

    private func deal(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        // A card from the batch costs one round trip: its check by key rides
        // with the viewer's read, for the viewer the batch was ranked for, and
        // counts when that is who was read (the check `one` would make).
        var prechecked: (key: Int, profile: Profile?)?
        let state: FeedState
        // The viewer's key is known once a fetch over this memory read it.
        if let viewerKey = dealer.viewerKey, let next = dealer.upNext(skip: { excluding.contains($0.profile.id) }),
            let read = try FeedState.read(
                connection, checking: next.candidate.key,
                for: PostgresDiscoveryViewer(key: viewerKey, profile: next.viewer))
        {
            state = read.state
            if state.viewer.profile == next.viewer { prechecked = (next.candidate.key, read.next) }
        } else {
            guard let read = try FeedState.read(connection, viewer: viewer) else {
                throw ViewerError.notAProfile(viewer)
            }
            state = read
        }
        let me = state.viewer
        dealer.viewerKey = me.key
        let now = dealer.now()
        try dealer.stampOnce {
            try connection.statement(PostgresDiscoverySQL.stampActive).run(
                .int(me.key), .text(Timestamp.string(from: now)))
        }
        guard !me.seesNobody else { return [] }
        var pick = Ranking.LikerPick(limit: limit, held: excluding)
        // Enough rows for the cards wanted and those the deck already holds.
        let firstBatch = limit + excluding.count + 2

        for (kind, waiting) in [(Decision.superlike, state.superlikers), (.like, state.likers)]
        where !pick.isFull && waiting.waiting {
            var after = waiting.cursor ?? .start
            var firstEligible: LikePosition?
            try batches(firstBatch) { size in
                let arguments = me.arguments(.text(kind.rawValue), .text(after.at), .int(after.key), .int(size))
                let rows = try connection.statement(PostgresDiscoverySQL.likers).query(arguments)
                for row in rows {
                    after = try PostgresProfileRow.likePosition(row)
                    let profile = try PostgresProfileRow.profile(row)
                    guard me.accepts(profile) else { continue }
                    if firstEligible == nil { firstEligible = after }
                    guard pick.offer(profile, key: try PostgresProfileRow.key(row)) else { return .stop }
                }
                return rows.count < size ? .stop : .more
            }
            // Every like before the first eligible one was passed over (or
            // every like, when none is eligible): the cursor moves past them.
            // The entry before, if it is a like of this kind of the viewer.
            let position = { (row: PGRow) -> LikePosition? in
                guard try row.int(0) == me.key, try row.text(1) == kind.rawValue else { return nil }
                return LikePosition(at: try row.text(2), key: try row.int(3))
            }
            let passed =
                if let firstEligible {
                    try connection.statement(PostgresDiscoverySQL.lastLikeBefore)
                        .first(
                            [.int(me.key), .text(kind.rawValue), .text(firstEligible.at), .int(firstEligible.key)],
                            position)
                } else {
                    try connection.statement(PostgresDiscoverySQL.lastLike).first(
                        [.int(me.key), .text(kind.rawValue)], position)
                }
            if let passed = passed ?? nil, passed > (waiting.cursor ?? .start) {
                try connection.statement(PostgresDiscoverySQL.saveLikerCursor)
                    .run(.int(me.key), .text(kind.rawValue), .text(passed.at), .int(passed.key))
            }
        }
        dealer.likersDealt(pick.profiles.count)
        var profiles = pick.profiles, dealtKeys = pick.keys
        let check = { (candidate: Discovery.RankCandidate) in
            if let checked = prechecked, checked.key == candidate.key {
                prechecked = nil
                return checked.profile.flatMap { me.accepts($0) ? $0 : nil }
            }
            return try self.connection.statement(PostgresDiscoverySQL.one).first(me.arguments(.int(candidate.key))) {
                try PostgresProfileRow.profile($0)
            }.flatMap { me.accepts($0) ? $0 : nil }
        }
        let queued = try dealer.fromBatch(viewer: me.profile, need: limit - profiles.count) {
            excluding.contains($0.profile.id) || pick.taken.contains($0.profile.id)
        } check: {
            try check($0)
        }
        profiles += queued.map(\.profile)
        dealtKeys += queued.map(\.key)
        // The ranking counts every card dealt so far, this fetch's too.
        dealer.noteDealt(dealtKeys)
        if profiles.count >= limit { return profiles }
        // Rows are locked in key order, so two feeds' counts do not deadlock
        // each other; a decision's row locks still can. A count that met a
        // deadlock or waited too long for a lock is counted at the next
        // refill instead: the impressions steer exposure, and the fetch must
        // neither fail nor stall for them.
        do {
            try countImpressions()
        } catch let error as PostgresError where error.isDeadlock || error.isLockNotAvailable {}
        let myStats = try Discovery.RankStats.read(key: me.key, on: connection)

        // The window, as SQLite's feed reads it: the first `window` eligible
        // after the cursor in key order, not counting the deck's or the likers'.
        var window = Ranking.CandidateWindow(
            viewer: me, cursor: state.feedCursor ?? 0, size: options.window,
            held: excluding.union(profiles.map(\.id)))
        var after = window.cursor
        let cells = me.box.flatMap { Discovery.cells(covering: $0, limit: options.cellLimit ?? 64) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        try batches(options.window + excluding.count + profiles.count + 2) { size in
            // Rows come in key order, whether by the walk or merged from the cells.
            let rows: PGResult
            if let cells {
                let arguments = me.arguments(.int(after), .int(size)) + cells.map { PostgresValue.int($0) }
                rows = try connection.statement(PostgresDiscoverySQL.inCells(count: cells.count)).query(arguments)
            } else {
                let arguments = me.arguments(.int(after), .int(size))
                rows = try connection.statement(PostgresDiscoverySQL.byKey).query(arguments)
            }
            for row in rows {
                after = try PostgresProfileRow.key(row)
                guard try window.walk(row) else { return .stop }
            }
            return rows.count < size ? .stop : .more
        }
        let rejectedThrough = window.rejectedThrough { state.largestKey }
        if rejectedThrough > window.cursor {
            try connection.statement(PostgresDiscoverySQL.saveCursor).run(.int(me.key), .int(rejectedThrough))
        }
        if options.recentWindow > 0 {
            let arguments = me.arguments(.int(options.recentWindow))
            for row in try connection.statement(PostgresDiscoverySQL.recentlyActive).query(arguments) {
                try window.addRecent(row)
            }
        }
        let ranked = try window.ranked(
            viewerStats: myStats, now: now, model: options.model, reads: ledgerReads, cache: options.memory.market
        ) {
            try connection.statement(PostgresDiscoverySQL.marketSample).query(.int(options.model.marketSample)).map {
                try Ranking.Market.Row(row: $0)
            }
        }
        let fresh = dealer.refill(
            ranked, viewer: me.profile, need: limit - profiles.count, skip: { _ in false },
            check: { $0.profile })
        return profiles + fresh.map(\.profile)
    }

    /// The ledger's neighbourhood for the collaborative signals
    /// (`Ranking.LedgerReads`): one statement per read, every key and kind in it.
    private var ledgerReads: Ranking.LedgerReads {
        let connection = connection
        func read(_ sql: String, _ keys: [Int], _ kinds: [Decision], _ limit: Int, given: Bool) throws
            -> [Ranking.Edge]
        {
            guard !keys.isEmpty else { return [] }
            let rows = try connection.statement(sql).query(
                .text("[" + keys.map(String.init).joined(separator: ",") + "]"),
                .text("[" + kinds.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"), .int(limit))
            return try rows.map { row in
                Ranking.Edge(
                    try row.int(0), try row.int(2), liked: try row.text(1) != Decision.hate.rawValue, given: given)
            }
        }
        return Ranking.LedgerReads(
            given: { try read(PostgresDiscoverySQL.givenLatest, $0, $1, $2, given: true) },
            received: { try read(PostgresDiscoverySQL.receivedLatest, $0, $1, $2, given: false) })
    }

    /// Counts the impressions noted since the last count in one statement
    /// (`PostgresDiscoverySQL.dealt`), a profile dealt twice counted twice.
    public func countImpressions() throws {
        try dealer.countImpressions { pending in
            if connection.isInTransaction {
                try self.connection.statement(PostgresDiscoverySQL.dealt).run(
                    .text(pending.keys), .text(pending.now), .text(pending.windowStart))
            } else {
                // A decision holds its rank_stats rows until it commits: the count
                // waits for them briefly, not for the server's deadlock check (1 s).
                // One flight is one transaction (PostgreSQL's implicit one, up
                // to its Sync) and one round trip, where BEGIN, SET LOCAL, the
                // count and COMMIT took four.
                let (_, failure) = try connection.flight([
                    (PostgresDiscoverySQL.countWaitsBriefly, []),
                    (PostgresDiscoverySQL.dealt, [pending.keys, pending.now, pending.windowStart]),
                ])
                if let failure { throw failure }
            }
        }
    }

    private enum Next { case more, stop }

    /// Calls `body` with growing row limits (from `first`, doubling up to
    /// 512) until it says stop: the exact distance test may turn down a few
    /// of the rows a query returns, and the next batch resumes after them.
    private func batches(_ first: Int, _ body: (Int) throws -> Next) throws {
        var size = first
        while try body(size) == .more { size = min(size * 2, 512) }
    }
}

/// The viewer's row and their feed's cursors, read in one round trip
/// (`PostgresDiscoverySQL.feedState`).
private struct FeedState {
    struct Likers {
        /// Where the likers of this kind resume; nil: from the first.
        var cursor: LikePosition?
        /// Whether any standing like of this kind lies beyond the cursor.
        var waiting: Bool
    }

    var viewer: PostgresDiscoveryViewer
    var feedCursor: Int?
    var superlikers: Likers
    var likers: Likers
    var largestKey: Int

    static func read(_ connection: PGConnection, viewer: String) throws -> FeedState? {
        guard !viewer.utf8.contains(0) else { return nil }
        return try connection.statement(PostgresDiscoverySQL.feedState).first([.text(viewer)]) {
            try FeedState(row: $0)
        }
    }

    /// The state of the viewer with `ranked`'s key, and in the same
    /// statement (`feedStateAndNext`) the candidate `key` as stored now when
    /// it is eligible for `ranked` (nil: not eligible), but for the exact
    /// distance; nil when no profile has that key any more.
    static func read(
        _ connection: PGConnection, checking key: Int, for ranked: PostgresDiscoveryViewer
    ) throws -> (state: FeedState, next: Profile?)? {
        var state: FeedState?, next: Profile?
        let arguments = ranked.arguments(.int(key))
        let rows =
            try connection.takeReadAnswer(PostgresDiscoverySQL.feedStateAndNext, arguments)
            ?? connection.statement(PostgresDiscoverySQL.feedStateAndNext).query(arguments)
        for row in rows {
            if try row.int("part") == 0 {
                state = try FeedState(row: row)
            } else {
                next = try PostgresProfileRow.profile(row)
            }
        }
        return state.map { ($0, next) }
    }
}

extension FeedState {
    /// From a row of `feedState` (or a `part` 0 row of `feedStateAndNext`).
    init(row: PGRow) throws {
        func likers(_ column: Int) throws -> Likers {
            Likers(
                cursor: try row.isNull(column)
                    ? nil : LikePosition(at: try row.text(column), key: try row.int(column + 1)),
                waiting: try row.bool(column + 2))
        }
        self.init(
            viewer: PostgresDiscoveryViewer(
                key: try PostgresProfileRow.key(row), profile: try PostgresProfileRow.profile(row)),
            feedCursor: try row.optionalInt(15), superlikers: try likers(16), likers: try likers(19),
            largestKey: try row.int(22))
    }
}
