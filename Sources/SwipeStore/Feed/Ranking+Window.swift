import Foundation
import SwipeCore

extension Ranking {
    /// The cards a fetch deals first, before any ranking (README "Discovery"):
    /// those holding a standing superlike, then a like, of the viewer, each
    /// oldest first, as each backend's likers query returns them. Written once
    /// for both feeds: a liker the deck holds already, or one met twice (a
    /// superlike and an older like), is passed over, and the pick is full at
    /// `limit` cards. The backend keeps only how it reads the likers and moves
    /// their cursors.
    public struct LikerPick {
        public let limit: Int
        private let held: Set<String>
        public private(set) var profiles: [Profile] = []
        /// Their internal keys, in the same order (for the impressions).
        public private(set) var keys: [Int] = []
        /// The ids picked, and so never dealt again by the ranking this fetch.
        public private(set) var taken: Set<String> = []

        /// An empty pick of at most `limit` cards, none of those in `held` (the deck's).
        public init(limit: Int, held: Set<String>) {
            self.limit = limit
            self.held = held
        }

        /// Whether the pick has its `limit` cards.
        public var isFull: Bool { profiles.count >= limit }

        /// Offers an eligible liker (`key` is its internal key); false once the pick is full.
        public mutating func offer(_ profile: Profile, key: Int) -> Bool {
            if !held.contains(profile.id), taken.insert(profile.id).inserted {
                profiles.append(profile)
                keys.append(key)
            }
            return !isFull
        }
    }

    /// The window a refill ranks, gathered and ranked the same way on every
    /// backend (README "Ranking"): the first `size` eligible profiles after
    /// the feed's cursor in key order, not counting those the deck holds or
    /// the fetch dealt already, then the eligible among the most recently
    /// active; and how far the cursor may move (every key at or below it
    /// decided, blocked or not eligible).
    ///
    /// A backend only finds the rows, whether by one walk of the keys or by
    /// merging the few place cells that cover the viewer's box, and hands
    /// each one here in key order (`walk`), then the recently active
    /// (`addRecent`). Each row holds the profile's columns, `key`, and the
    /// ranking's columns (`Discovery.RankStats(row:)`). The exact distance is
    /// applied here, to the rows the backend's index search returned.
    public struct CandidateWindow {
        public let viewer: Discovery.Viewer
        /// Where the walk began: every key at or below it was passed before.
        public let cursor: Int
        private let size: Int
        private let held: Set<String>
        public private(set) var candidates: [Int: Discovery.RankCandidate] = [:]
        /// The first eligible key the walk met, held or not.
        private var firstEligible: Int?
        private var walked = 0
        /// Whether the walk has not filled the window (so far, or when its rows ran out).
        private var exhausted = true

        /// An empty window of `size` for `viewer`, walking from `cursor`,
        /// never holding a profile whose id is in `held`.
        public init(viewer: Discovery.Viewer, cursor: Int, size: Int, held: Set<String>) {
            self.viewer = viewer
            self.cursor = cursor
            self.size = size
            self.held = held
        }

        /// Offers the walk's next row (keys ascending, all after `cursor`);
        /// false once the window is full and the walk may stop.
        public mutating func walk(_ row: some SQLRow) throws -> Bool {
            let key = try row.int("key")
            let profile = try Profile(row: row)
            guard viewer.accepts(profile) else { return true }
            if firstEligible == nil { firstEligible = key }
            if !held.contains(profile.id) {
                candidates[key] = Discovery.RankCandidate(
                    key: key, profile: profile, stats: try Discovery.RankStats(row: row))
                walked += 1
            }
            exhausted = walked < size
            return exhausted
        }

        /// Offers a row of the most recently active (any order), beside the walk's.
        public mutating func addRecent(_ row: some SQLRow) throws {
            let key = try row.int("key")
            guard candidates[key] == nil else { return }
            let profile = try Profile(row: row)
            guard viewer.accepts(profile), !held.contains(profile.id) else { return }
            candidates[key] = Discovery.RankCandidate(
                key: key, profile: profile, stats: try Discovery.RankStats(row: row))
        }

        /// Where the feed's cursor may move after the walk: just before its
        /// first eligible key; when there was none, past every key
        /// (`largestKey`) if the walk ran out of rows, else nowhere.
        public func rejectedThrough(largestKey: () throws -> Int) rethrows -> Int {
            if let firstEligible { return firstEligible - 1 }
            return exhausted ? try largestKey() : cursor
        }

        /// The window in the ranking's order (`Ranking.order`), with what
        /// `model` needs read through the backend: the ledger's neighbourhood
        /// for the collaborative signals, the market sample for its prior
        /// (through `cache`, a server's, when there is one). Neither is read
        /// when the model leaves it out.
        public func ranked(
            viewerStats: Discovery.RankStats, now: Date, model: Model, reads: LedgerReads, cache: MarketCache?,
            marketSample: () throws -> [Market.Row]
        ) throws -> [Discovery.RankCandidate] {
            let coLikes =
                model.readsCoLikes
                ? try Ranking.coLikes(viewer: viewer.key, candidates: Set(candidates.keys), model: model, reads: reads)
                : CoLikes()
            let market: Market
            if model.prior != .market {
                market = Market()
            } else if let cache {
                market = try cache.market(size: model.marketSample, read: marketSample)
            } else {
                market = Market(try marketSample())
            }
            return Ranking.order(
                viewer: viewer.profile, viewerStats: viewerStats, candidates: Array(candidates.values), now: now,
                model: model, coLikes: coLikes, market: market)
        }
    }
}

extension Discovery.RankStats: FetchableRow {
    /// The ranking's columns of a feed query's row, by name (`rank_stats`
    /// and `rank_fit` as the feed queries join them): a profile with no row
    /// reads as zero and never, and unfitted; `fit_mean` only where the
    /// query returns it (the viewer's row).
    public init(row: some SQLRow) throws {
        self.init(
            given: try row.optionalInt("given") ?? 0, givenLikes: try row.optionalInt("given_likes") ?? 0,
            received: try row.optionalInt("received") ?? 0, receivedLikes: try row.optionalInt("received_likes") ?? 0,
            lastActiveAt: try row.optionalText("last_active_at"), dealtSince: try row.optionalText("dealt_since"),
            dealt: try row.optionalInt("dealt") ?? 0, dealtTotal: try row.optionalInt("dealt_total") ?? 0,
            appeal: try row.optionalDouble("appeal"), generosity: try row.optionalDouble("generosity"),
            fitMean: try row.columnIndex("fit_mean") == nil ? nil : row.optionalDouble("fit_mean"))
    }
}

extension Ranking.Market.Row: FetchableRow {
    /// A row of the market sample: `profile` (its key), `gender` and the
    /// decisions given and received with the likes among them.
    public init(row: some SQLRow) throws {
        self.init(
            key: try row.int("profile"), gender: try row.optionalText("gender"),
            stats: Discovery.RankStats(
                given: try row.int("given"), givenLikes: try row.int("given_likes"), received: try row.int("received"),
                receivedLikes: try row.int("received_likes")))
    }
}

extension Ranking.Edge {
    /// A standing decision read from `key`'s side of the ledger: one `key`
    /// made about `other` (`given`), or one `other` made about `key`.
    public init(_ key: Int, _ other: Int, liked: Bool, given: Bool) {
        self = given ? Self(viewer: key, profile: other, liked: liked) : Self(viewer: other, profile: key, liked: liked)
    }
}
