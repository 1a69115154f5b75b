import Foundation
import SwipeCore

extension Ranking {
    /// The collaborative signal (issue 38), read from the ledger in a
    /// bounded neighbourhood of the viewer V, the same for every backend:
    ///
    /// - co-liked (V likes C?): the people who liked what V liked (V's
    ///   `neighbours` latest likes, each one's `neighbours` latest likers,
    ///   at most `neighbours` of them), and their latest `decisionsEach`
    ///   decisions of each kind: how often they liked C.
    /// - likes your type (C likes V?): the people liked by those who liked V
    ///   (V's `neighbours` latest likers, each one's `neighbours` latest likes,
    ///   at most `neighbours` of them), and the latest `decisionsEach`
    ///   decisions of each kind made about them: how often C liked them.
    ///
    /// Six reads whatever the market's size, each of at most
    /// `neighbours × 3 × max(neighbours, decisionsEach)` rows: the work per refill is bounded
    /// by these constants alone.
    public struct CoLikes: Sendable, Equatable {
        /// Per candidate key: the likes and decisions V's co-likers gave it.
        public var coLiked: [Int: Tally] = [:]
        /// Per candidate key: the likes and decisions it gave people like V.
        public var likesYourType: [Int: Tally] = [:]

        public init(coLiked: [Int: Tally] = [:], likesYourType: [Int: Tally] = [:]) {
            self.coLiked = coLiked
            self.likesYourType = likesYourType
        }
    }

    /// Likes among decisions.
    public struct Tally: Sendable, Equatable {
        public var likes = 0
        public var count = 0

        public init(likes: Int = 0, count: Int = 0) {
            self.likes = likes
            self.count = count
        }
    }

    /// Neighbours (likes, likers, co-likers, people like V) taken per step:
    /// the default of `Model.neighbours`. `make bench-ranking` chooses it
    /// (10, 20 or 40) per fold of its cross-validation wherever a
    /// collaborative signal is on; 20 is what most folds chose
    /// (Documentation/Discovery.md, the ablation).
    public static let neighbours = 20
    /// Decisions of each kind read per neighbour in the last step: the
    /// default of `Model.decisionsEach`, chosen with `neighbours` (15, 30 or
    /// 60); 30 is what most folds chose.
    public static let decisionsEach = 30

    /// A standing decision of the ledger, by internal keys.
    public struct Edge: Sendable, Equatable {
        public var viewer: Int
        public var profile: Int
        /// A like or superlike (not a hate).
        public var liked: Bool

        public init(viewer: Int, profile: Int, liked: Bool) {
            self.viewer = viewer
            self.profile = profile
            self.liked = liked
        }
    }

    /// The two reads a backend supplies: for each key in the order given,
    /// for each kind in the order given, its latest `limit` standing
    /// decisions of that kind (by `decided_at` descending, then the other
    /// side's key descending) made by the key (`given`) or about it
    /// (`received`).
    public struct LedgerReads {
        public var given: (_ keys: [Int], _ kinds: [Decision], _ limit: Int) throws -> [Edge]
        public var received: (_ keys: [Int], _ kinds: [Decision], _ limit: Int) throws -> [Edge]

        public init(
            given: @escaping ([Int], [Decision], Int) throws -> [Edge],
            received: @escaping ([Int], [Decision], Int) throws -> [Edge]
        ) {
            self.given = given
            self.received = received
        }
    }

    static let likeKinds: [Decision] = [.superlike, .like]
    static let allKinds: [Decision] = [.superlike, .like, .hate]

    /// The first `cap` distinct values of `values` other than `except`, in order.
    static func distinct(_ values: [Int], except: Int, cap: Int) -> [Int] {
        var seen: Set<Int> = [except]
        var kept: [Int] = []
        for value in values where kept.count < cap && seen.insert(value).inserted { kept.append(value) }
        return kept
    }

    /// The collaborative tallies for `viewer` (its key) over `candidates`
    /// (their keys), from the backend's reads; nothing is read for a signal
    /// `model` leaves out.
    public static func coLikes(
        viewer: Int, candidates: Set<Int>, model: Model, reads: LedgerReads
    ) throws -> CoLikes {
        var result = CoLikes()
        guard model.collaborativeWeight > 0, !candidates.isEmpty else { return result }
        let k = model.neighbours
        if model.uses(.coLiked) {
            let liked = try reads.given([viewer], likeKinds, k).map(\.profile)
            let coLikers = distinct(
                try reads.received(distinct(liked, except: viewer, cap: k), likeKinds, k).map(\.viewer),
                except: viewer, cap: k)
            for edge in try reads.given(coLikers, allKinds, model.decisionsEach) where candidates.contains(edge.profile)
            {
                result.coLiked[edge.profile, default: Tally()].count += 1
                if edge.liked { result.coLiked[edge.profile]!.likes += 1 }
            }
        }
        if model.uses(.likesYourType) {
            let likers = try reads.received([viewer], likeKinds, k).map(\.viewer)
            let likeYou = distinct(
                try reads.given(distinct(likers, except: viewer, cap: k), likeKinds, k).map(\.profile),
                except: viewer, cap: k)
            for edge in try reads.received(likeYou, allKinds, model.decisionsEach)
            where candidates.contains(edge.viewer) {
                result.likesYourType[edge.viewer, default: Tally()].count += 1
                if edge.liked { result.likesYourType[edge.viewer]!.likes += 1 }
            }
        }
        return result
    }

    /// The shift of a direction's like odds by what the neighbourhood
    /// shows: the neighbours' like rate for the pair, smoothed toward
    /// `rate` (the candidate's own smoothed rate) with the prior's weight
    /// `weight` (the same fitted prior), in log-odds from `rate`, times the
    /// model's weight. 0 without a tally.
    static func collaborativeShift(_ tally: Tally?, rate: Double, weight: Double, model: Model) -> Double {
        guard let tally, tally.count > 0, model.collaborativeWeight > 0 else { return 0 }
        let smoothed = clamp((Double(tally.likes) + weight * rate) / (Double(tally.count) + weight))
        return model.collaborativeWeight * (logit(smoothed) - logit(rate))
    }
}

extension Ranking {
    /// Profiles in the market sample of `Prior.market`: the default of
    /// `Model.marketSample`. `make bench-ranking` chooses it (250, 500,
    /// 1,000 or 2,000) per fold of its cross-validation; 1,000 is what the
    /// folds chose (Documentation/Discovery.md, the ablation).
    public static let marketSample = 1_000

    /// The market the prior is fitted to under `Prior.market`: the stats of
    /// the `Model.marketSample` most recently active profiles (by `last_active_at`
    /// descending, then key descending: one range of `rank_stats_active`),
    /// in key order, so that every backend sums the fit's terms alike.
    /// Bounded by the constant whatever the market's size.
    public struct Market: Sendable {
        public struct Row: Sendable {
            public var key: Int
            public var gender: String?
            public var stats: Discovery.RankStats

            public init(key: Int, gender: String?, stats: Discovery.RankStats) {
                self.key = key
                self.gender = gender
                self.stats = stats
            }
        }

        public private(set) var rows: [Row]
        /// The rates and prior fitted to `rows`, once: a server's cached
        /// sample serves many rankings (`MarketCache`).
        let bases: Bases

        /// `rows` as read (any order; genders raw, as stored).
        public init(_ rows: [Row] = []) {
            // A sample holds a few spellings of gender: each is keyed once.
            var keys: [String: String?] = [:]
            func key(_ raw: String) -> String? {
                if let known = keys[raw] { return known }
                let key = Discovery.genderKey(raw)
                let found: String? = key.isEmpty ? nil : key
                keys[raw] = found
                return found
            }
            var keyed = rows
            for i in keyed.indices { keyed[i].gender = keyed[i].gender.flatMap(key) }
            keyed.sort { $0.key < $1.key }
            self.rows = keyed
            bases = Bases(keyed.map { ($0.gender, $0.stats) }, prior: .fitted)
        }
    }
}
