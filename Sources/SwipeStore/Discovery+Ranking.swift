import Foundation
import SwipeCore

extension Discovery {
    /// What the ranking knows about one profile (`rank_stats`, README
    /// "Ranking"): its standing decisions given and received with the likes
    /// among them, its last act, and how often feeds dealt it.
    public struct RankStats: Hashable, Sendable {
        public var given = 0, givenLikes = 0, received = 0, receivedLikes = 0
        /// Its last act (a decision, an undo, opening a feed); nil: never since it was imported.
        public var lastActiveAt: String?
        /// Dealt `dealt` times in the 24 hours from `dealtSince`.
        public var dealtSince: String?
        public var dealt = 0
        public var dealtTotal = 0
        /// Its appeal and generosity in the last fit (`Ranking.Fit`,
        /// `rank_fit`); nil: the fit did not see it (0, a typical person's).
        public var appeal: Double?
        public var generosity: Double?
        /// The last fit's mean (`rank_fit_mean`), read with the viewer's row
        /// alone; nil: never fitted, or a candidate's row.
        public var fitMean: Double?

        /// - Parameters:
        ///   - given: Standing decisions it made.
        ///   - givenLikes: The likes among them.
        ///   - received: Standing decisions made about it.
        ///   - receivedLikes: The likes among them.
        ///   - lastActiveAt: Its last act.
        ///   - dealtSince: When its 24-hour count of deals began.
        ///   - dealt: Deals in that window.
        ///   - dealtTotal: Deals ever.
        ///   - appeal: Its appeal in the last fit.
        ///   - generosity: Its generosity in the last fit.
        ///   - fitMean: The last fit's mean (the viewer's row only).
        public init(
            given: Int = 0, givenLikes: Int = 0, received: Int = 0, receivedLikes: Int = 0,
            lastActiveAt: String? = nil, dealtSince: String? = nil, dealt: Int = 0, dealtTotal: Int = 0,
            appeal: Double? = nil, generosity: Double? = nil, fitMean: Double? = nil
        ) {
            self.given = given
            self.givenLikes = givenLikes
            self.received = received
            self.receivedLikes = receivedLikes
            self.lastActiveAt = lastActiveAt
            self.dealtSince = dealtSince
            self.dealt = dealt
            self.dealtTotal = dealtTotal
            self.appeal = appeal
            self.generosity = generosity
            self.fitMean = fitMean
        }

        /// Times dealt in the last 24 hours before `now` (0 once the window is over).
        public func dealtRecently(now: Date) -> Int {
            guard let since = dealtSince.flatMap(Timestamp.date(from:)) else { return 0 }
            return now.timeIntervalSince(since) < 86_400 ? dealt : 0
        }
    }

    /// A profile the ranking may deal, with its internal key and its stats.
    public struct RankCandidate: Sendable {
        public var key: Int
        public var profile: Profile
        public var stats: RankStats

        public init(key: Int, profile: Profile, stats: RankStats) {
            self.key = key
            self.profile = profile
            self.stats = stats
        }
    }
}

/// The order of the feed after the likers (README "Ranking"),
/// the same arithmetic for every backend: each backend reads a bounded
/// window of candidates by index and hands it here, so the same data at the
/// same moment deals the same sequence everywhere; both deal the ranked
/// window in batches by one rule (`Ranking.Batch`).
///
/// 1. Activity tier: a profile that has acted since it was imported ranks
///    above every one that has not.
/// 2. Score, highest first: the model of mutual interest (`Model`): the
///    chance V likes C and the chance C likes V, from the like rates
///    received and given smoothed toward their gender's by a prior fitted
///    to the market (`Market`: the most recently active), joined by their
///    harmonic mean; then the exposure bound. The other signals
///    (activity decay, distance, shared interests, the new-profile lift) are
///    off in `Model.standard`: the benchmark's ablation found no help from
///    them; a model may still switch them on.
/// 3. Ties: a hash of the viewer's and the candidate's ids (per viewer, never key order).
public enum Ranking {
    /// Eligible candidates read in key order from the cursor per fetch.
    public static let window = 100
    /// Most recently active profiles looked at per fetch.
    public static let recentWindow = 100
    /// The prior's weight, in decisions, when the window is too thin to fit one
    /// (fewer than 3 profiles with decisions in a gender of 2 or more).
    static let fallbackWeight = 3.0
    /// Days over which an act's weight falls to 1/e.
    static let activityDays = 7.0
    /// At most this many shared interests count (`Model.sharedWeight` each).
    static let sharedCap = 3
    /// Dealt more than the window's fair share in 24 h (its active
    /// candidates' mean, plus this many impressions of grace): sinks. The
    /// default of `Model.exposureGrace`, chosen by `make bench-ranking` on
    /// training towns it never reports (seeds 20–22): of the graces 0.5, 1,
    /// 2 and 3, the most matches per 100 swipes with exposure Gini ≤ 0.40 on
    /// each (3: 13.93 summed over the three against 13.62 for 1, Gini
    /// 0.30–0.33). No multiple of the mean: at twice the mean the bound bit
    /// almost no one.
    public static let exposureGrace = 3.0
    /// A newly active profile (few impressions, few decisions) is lifted by this factor.
    static let newLift = 1.5
    static let newImpressions = 5

    /// Base like rates (given, received) per gender key in the window: the
    /// rates the profiles' own are smoothed toward, and the prior's weight
    /// in decisions for each (fitted to the window, or fixed).
    struct Bases {
        var given: [String: Double] = [:]
        var received: [String: Double] = [:]
        var allGiven = 0.5
        var allReceived = 0.5
        var givenWeight = Ranking.fallbackWeight
        var receivedWeight = Ranking.fallbackWeight

        /// `stats` in a canonical order (by profile id), so that every
        /// backend sums the fit's terms alike.
        init(_ stats: [(gender: String?, stats: Discovery.RankStats)], prior: Prior = .fixed(Ranking.fallbackWeight)) {
            var sums: [String: (g: Int, gl: Int, r: Int, rl: Int)] = [:]
            var all = (g: 0, gl: 0, r: 0, rl: 0)
            func add(_ s: Discovery.RankStats, to t: inout (g: Int, gl: Int, r: Int, rl: Int)) {
                t.g += s.given; t.gl += s.givenLikes; t.r += s.received; t.rl += s.receivedLikes
            }
            for (gender, s) in stats {
                // One lookup of the gender's sums, changed in place.
                add(s, to: &sums[gender ?? "", default: (0, 0, 0, 0)])
                all.g += s.given; all.gl += s.givenLikes; all.r += s.received; all.rl += s.receivedLikes
            }
            // Toward one half, weight 10, so an empty window gives 0.5.
            func rate(_ likes: Int, _ count: Int) -> Double { (Double(likes) + 5) / (Double(count) + 10) }
            allGiven = rate(all.gl, all.g)
            allReceived = rate(all.rl, all.r)
            for (key, t) in sums {
                given[key] = rate(t.gl, t.g)
                received[key] = rate(t.rl, t.r)
            }
            switch prior {
            case .fixed(let weight):
                givenWeight = weight
                receivedWeight = weight
            case .fitted, .market:
                givenWeight =
                    Ranking.fittedWeight(stats.map { ($0.gender ?? "", $0.stats.givenLikes, $0.stats.given) })
                    ?? Ranking.fallbackWeight
                receivedWeight =
                    Ranking.fittedWeight(stats.map { ($0.gender ?? "", $0.stats.receivedLikes, $0.stats.received) })
                    ?? Ranking.fallbackWeight
            }
        }
    }

    /// The weight, in decisions, of the beta prior that spreads as the
    /// observed like rates do (empirical Bayes, by the method of moments):
    /// around each group's pooled rate m, a rate over n decisions varies by
    /// m(1 − m)(ρ + (1 − ρ)/n) when the true rates vary by m(1 − m)ρ, and the
    /// prior's weight is 1/ρ − 1. Groups (genders) of fewer than 2 profiles
    /// with decisions, or pooled rate 0 or 1, do not count; nil when fewer
    /// than 3 profiles count or all decided once. ρ is kept within 0.02–0.98
    /// (a weight of 0.02–49 decisions). Rows in the order given.
    static func fittedWeight(_ rows: [(group: String, likes: Int, count: Int)]) -> Double? {
        var groups: [String: [(likes: Int, count: Int)]] = [:]
        for row in rows where row.count > 0 { groups[row.group, default: []].append((row.likes, row.count)) }
        var spread = 0.0, inverse = 0.0, counted = 0
        for key in groups.keys.sorted() {
            let rates = groups[key]!
            guard rates.count >= 2 else { continue }
            let mean = Double(rates.reduce(0) { $0 + $1.likes }) / Double(rates.reduce(0) { $0 + $1.count })
            guard mean > 0, mean < 1 else { continue }
            for (likes, count) in rates {
                let d = Double(likes) / Double(count) - mean
                spread += d * d / (mean * (1 - mean))
                inverse += 1 / Double(count)
                counted += 1
            }
        }
        guard counted >= 3 else { return nil }
        let s = spread / Double(counted), i = inverse / Double(counted)
        guard i < 1 else { return nil }
        let rho = min(0.98, max(0.02, (s - i) / (1 - i)))
        return 1 / rho - 1
    }

    static func clamp(_ p: Double) -> Double { min(0.98, max(0.02, p)) }
    static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// A profile's like rate given (generosity) and received, smoothed toward
    /// its gender's (`gender`: its `Discovery.genderKey`, "" for none); a
    /// signal off holds that rate at its gender's.
    static func rates(gender: String, _ s: Discovery.RankStats, _ bases: Bases, _ switches: Switches) -> (
        given: Double, received: Double, base: Double
    ) {
        let baseGiven = bases.given[gender] ?? bases.allGiven
        let baseReceived = bases.received[gender] ?? bases.allReceived
        let given =
            switches.given
            ? clamp((Double(s.givenLikes) + bases.givenWeight * baseGiven) / (Double(s.given) + bases.givenWeight))
            : clamp(baseGiven)
        let received =
            switches.received
            ? clamp(
                (Double(s.receivedLikes) + bases.receivedWeight * baseReceived)
                    / (Double(s.received) + bases.receivedWeight))
            : clamp(baseReceived)
        return (given, received, clamp(baseGiven))
    }

    /// Which of a model's signals are on, looked up once per ranking rather
    /// than in the model's set for every candidate.
    struct Switches {
        var given, received, sharedInterests, coLiked, likesYourType, activity, distance, exposure, newcomer: Bool

        init(_ model: Model) {
            given = model.uses(.given)
            received = model.uses(.received)
            // A weight of 0 adds nothing: the interests are not compared.
            sharedInterests = model.uses(.sharedInterests) && model.sharedWeight != 0
            coLiked = model.uses(.coLiked)
            likesYourType = model.uses(.likesYourType)
            activity = model.uses(.activity)
            distance = model.uses(.distance)
            exposure = model.uses(.exposure)
            newcomer = model.uses(.newcomer)
        }
    }

    /// The interests both profiles list, compared trimmed and case-insensitively, in the candidate's order.
    public static func sharedInterests(_ viewer: Profile, _ candidate: Profile) -> [String] {
        let mine = Set(viewer.interests.map { $0.trimmed().lowercased() }.filter { !$0.isEmpty })
        var seen: Set<String> = []
        return candidate.interests.filter { interest in
            let key = interest.trimmed().lowercased()
            return mine.contains(key) && seen.insert(key).inserted
        }
    }

    /// The distance between the two, km, when both have a place: the coarse
    /// one (`Discovery.coarseKm`), as eligibility uses, so neither the order
    /// nor `why` tells more about a place than its cell.
    public static func distanceKm(_ viewer: Profile, _ candidate: Profile) -> Double? {
        guard let here = viewer.location, let there = candidate.location else { return nil }
        return Double(Discovery.coarseKm(here, there))
    }

    /// Days since `stamp` before `now` (never negative); nil without a stamp.
    static func daysSince(_ stamp: String?, now: Date) -> Double? {
        guard let date = stamp.flatMap(Timestamp.date(from:)) else { return nil }
        return max(0, now.timeIntervalSince(date)) / 86_400
    }

    /// Whether the candidate counts as newly active: it acted and was dealt
    /// fewer than `newImpressions` times, ever.
    static func isNew(_ s: Discovery.RankStats) -> Bool {
        s.lastActiveAt != nil && s.dealtTotal < newImpressions
    }

    /// The per-viewer tie-break: FNV-1a over both ids.
    public static func tieHash(viewer: String, candidate: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for byte in viewer.utf8 { mix(byte) }
        mix(0)
        for byte in candidate.utf8 { mix(byte) }
        return hash
    }

    /// The score of each candidate (higher first), on the window as given.
    public static func scores(
        viewer: Profile, viewerStats: Discovery.RankStats, candidates: [Discovery.RankCandidate], now: Date,
        model: Model = .standard, coLikes: CoLikes = CoLikes(), market: Market = Market()
    ) -> [Double] {
        let switches = Switches(model)
        let genders = candidates.map { Discovery.genderKey(of: $0.profile) }
        let bases: Bases
        if model.prior == .market && !market.rows.isEmpty {
            bases = market.bases
        } else {
            let people =
                [(id: viewer.id, gender: Discovery.genderKey(of: viewer), stats: viewerStats)]
                + candidates.indices.map {
                    (id: candidates[$0].profile.id, gender: genders[$0], stats: candidates[$0].stats)
                }
            bases = Bases(people.sorted { $0.id < $1.id }.map { ($0.gender, $0.stats) }, prior: model.prior)
        }
        let me = rates(gender: Discovery.genderKey(of: viewer) ?? "", viewerStats, bases, switches)
        // Each candidate's impressions of the last 24 hours, its stamp read once.
        let dealtRecently = candidates.map { $0.stats.dealtRecently(now: now) }
        // The fair share: the mean times dealt in 24 h among the window's active candidates.
        var activeCount = 0, activeDealt = 0
        for (c, dealt) in zip(candidates, dealtRecently) where c.stats.lastActiveAt != nil {
            activeCount += 1
            activeDealt += dealt
        }
        let share = activeCount == 0 ? 0 : Double(activeDealt) / Double(activeCount)
        let fair = share + model.exposureGrace
        // The fitted model, when the feed uses it and a fit is stored: in
        // place of the smoothed like rates, each side's log-odds.
        let fitted = model.uses(.appeal) ? viewerStats.fitMean : nil
        return candidates.indices.map { i in
            let c = candidates[i]
            let them = rates(gender: genders[i] ?? "", c.stats, bases, switches)
            let shared =
                switches.sharedInterests
                ? Double(min(sharedInterests(viewer, c.profile).count, sharedCap)) * model.sharedWeight : 0
            let iLikeOdds: Double, theyLikeOdds: Double
            if let mean = fitted {
                iLikeOdds = mean + (viewerStats.generosity ?? 0) + (c.stats.appeal ?? 0)
                theyLikeOdds = mean + (c.stats.generosity ?? 0) + (viewerStats.appeal ?? 0)
            } else {
                iLikeOdds = logit(me.given) + logit(them.received) - logit(me.base)
                theyLikeOdds = logit(them.given) + logit(me.received) - logit(them.base)
            }
            let iLike = sigmoid(
                iLikeOdds + shared
                    + collaborativeShift(
                        switches.coLiked ? coLikes.coLiked[c.key] : nil, rate: them.received,
                        weight: bases.receivedWeight, model: model))
            let theyLike = sigmoid(
                theyLikeOdds + shared
                    + collaborativeShift(
                        switches.likesYourType ? coLikes.likesYourType[c.key] : nil, rate: them.given,
                        weight: bases.givenWeight, model: model))
            var score: Double
            switch model.aggregation {
            case .product: score = iLike * theyLike
            case .harmonic: score = 2 * iLike * theyLike / (iLike + theyLike)
            }
            if switches.activity, let days = daysSince(c.stats.lastActiveAt, now: now) {
                score *= exp(-days / activityDays)
            }
            if switches.distance, let km = distanceKm(viewer, c.profile) { score /= 1 + km / 100 }
            // Exposure is rationed among those who use the app: the others rank below them all anyway.
            let dealt = Double(dealtRecently[i])
            if switches.exposure, c.stats.lastActiveAt != nil, dealt > fair {
                score *= (fair / dealt) * (fair / dealt)
            }
            if switches.newcomer, isNew(c.stats) { score *= newLift }
            return score
        }
    }

    /// The window in the feed's order: acted before never acted, then score,
    /// then the viewer's tie hash.
    public static func order(
        viewer: Profile, viewerStats: Discovery.RankStats, candidates: [Discovery.RankCandidate], now: Date,
        model: Model = .standard, coLikes: CoLikes = CoLikes(), market: Market = Market()
    ) -> [Discovery.RankCandidate] {
        let scores = scores(
            viewer: viewer, viewerStats: viewerStats, candidates: candidates, now: now, model: model, coLikes: coLikes,
            market: market)
        let keyed = candidates.indices.map { i in
            (
                tier: candidates[i].stats.lastActiveAt == nil ? 0 : 1, score: scores[i],
                hash: tieHash(viewer: viewer.id, candidate: candidates[i].profile.id), index: i
            )
        }
        return keyed.sorted { a, b in
            if a.tier != b.tier { return a.tier > b.tier }
            if a.score != b.score { return a.score > b.score }
            if a.hash != b.hash { return a.hash < b.hash }
            return candidates[a.index].key < candidates[b.index].key
        }.map { candidates[$0.index] }
    }

    /// Why a card is dealt, in words: never more about another person's
    /// decisions than `likes` shows (`liker`: the card came as a standing
    /// like or superlike of the viewer, which `likes` lists). Only what the
    /// order uses is told: the likers first, and each signal of
    /// `Model.standard` that is on (Documentation/Discovery.md, the ablation).
    public static func reasons(
        viewer: Profile, candidate: Profile, stats: Discovery.RankStats, liker: Decision?, now: Date
    ) -> [String] {
        let model = Model.standard
        var reasons: [String] = []
        switch liker {
        case .superlike?: reasons.append("superlikes you")
        case .like?: reasons.append("likes you")
        default: break
        }
        if model.uses(.distance), let km = distanceKm(viewer, candidate) {
            // As the page shows it (`Discovery.shownDistanceKm`): never under 1 km.
            reasons.append("\(max(1, Int(km))) km away")
        }
        let shared = sharedInterests(viewer, candidate)
        if model.uses(.sharedInterests), model.sharedWeight > 0, !shared.isEmpty {
            reasons.append(
                shared.count == 1
                    ? "1 shared interest: \(shared[0])"
                    : "\(shared.count) shared interests: \(shared.joined(separator: ", "))")
        }
        if model.uses(.newcomer), isNew(stats) { reasons.append("new here") }
        if model.uses(.activity), let days = daysSince(stats.lastActiveAt, now: now) {
            if days < 1 { reasons.append("active today") } else if days < 7 { reasons.append("active this week") }
        }
        return reasons
    }
}

extension Ranking {
    /// A part of the score the ranking can leave out (`Model.off`): what the
    /// benchmark's ablation switches off one at a time (Documentation/Discovery.md).
    public enum Signal: String, CaseIterable, Hashable, Sendable {
        /// The candidate's like rate received: how often people like them.
        case received
        /// The candidate's like rate given: how readily they like.
        case given
        /// A shift of both directions' like odds per interest the two share.
        case sharedInterests = "shared interests"
        /// The fall of the score with the days since the candidate last acted.
        case activity
        /// The fall of the score with the distance between the two.
        case distance
        /// The exposure bound: dealt over the fair share in 24 hours, sinks.
        case exposure
        /// The lift of a newly active profile.
        case newcomer
        /// Collaborative, V likes C: how often those who liked what V liked liked C (`CoLikes`).
        case coLiked = "co-liked"
        /// Collaborative, C likes V: how often C liked those liked by the people who liked V (`CoLikes`).
        case likesYourType = "likes your type"
        /// The fitted model (`Fit`): each side's appeal and generosity from a
        /// logistic fit of the latest decisions, in place of the smoothed like
        /// rates (received and given), whenever a fit is stored.
        case appeal = "fitted appeal and generosity"
    }

    /// How the two directions' chances become one score.
    public enum Aggregation: String, CaseIterable, Hashable, Sendable {
        /// P(V likes C) × P(C likes V): the chance of a mutual like, were they independent.
        case product
        /// Their harmonic mean (RECON's): low when either side is low.
        case harmonic
    }

    /// How much the like rates are pulled toward their gender's rate.
    public enum Prior: Hashable, Sendable {
        /// A prior worth this many decisions, whatever the market.
        case fixed(Double)
        /// Fitted to the window (empirical Bayes: the beta prior whose spread
        /// matches the spread of the window's observed rates, `fittedWeight`).
        case fitted
        /// Fitted to the market (`Market`: the `marketSample` most recently
        /// active profiles, read by index): the same fit, and the base rates
        /// per gender, over the market rather than the window; the window's
        /// fit when the sample is empty.
        case market
    }

    /// What the score is made of: the benchmark chooses among models on
    /// nights it does not judge; a feed uses `standard`.
    public struct Model: Hashable, Sendable {
        public var aggregation: Aggregation
        public var prior: Prior
        /// Log-odds added per shared interest, up to `sharedCap` of them.
        public var sharedWeight: Double
        /// The weight of the collaborative signals' shift of the like odds
        /// (`collaborativeShift`); 0: nothing is read for them.
        public var collaborativeWeight: Double
        /// Signals left out.
        public var off: Set<Signal>
        /// Profiles in the market sample of `Prior.market` (`Market`).
        public var marketSample: Int
        /// Neighbours taken per step of the collaborative signals' reads (`coLikes`).
        public var neighbours: Int
        /// Decisions of each kind read per neighbour in their last step (`coLikes`).
        public var decisionsEach: Int
        /// Impressions of grace over the fair share before the exposure bound bites.
        public var exposureGrace: Double
        /// The ridge penalty of the fit a refit stores for this model
        /// (`Ranking.fit`; `SQLDatabase.refitRanking`): the feed reads
        /// whatever fit is stored.
        public var fitRidge: Double

        /// - Parameters:
        ///   - aggregation: How the two directions' chances become one score.
        ///   - prior: How much the like rates are pulled toward their gender's.
        ///   - sharedWeight: Log-odds added per shared interest.
        ///   - collaborativeWeight: The collaborative signals' weight (0: off).
        ///   - off: Signals left out.
        ///   - marketSample: Profiles in the market sample (`Ranking.marketSample` by default).
        ///   - neighbours: Neighbours per step of the collaborative reads (`Ranking.neighbours`).
        ///   - decisionsEach: Decisions of each kind per neighbour (`Ranking.decisionsEach`).
        ///   - exposureGrace: Impressions of grace over the fair share (`Ranking.exposureGrace`).
        ///   - fitRidge: The ridge penalty of the stored fit (`Ranking.fitRidge`).
        public init(
            aggregation: Aggregation, prior: Prior, sharedWeight: Double, collaborativeWeight: Double = 0,
            off: Set<Signal> = [], marketSample: Int = Ranking.marketSample, neighbours: Int = Ranking.neighbours,
            decisionsEach: Int = Ranking.decisionsEach, exposureGrace: Double = Ranking.exposureGrace,
            fitRidge: Double = Ranking.fitRidge
        ) {
            self.aggregation = aggregation
            self.prior = prior
            self.sharedWeight = sharedWeight
            self.collaborativeWeight = collaborativeWeight
            self.off = off
            self.marketSample = marketSample
            self.neighbours = neighbours
            self.decisionsEach = decisionsEach
            self.exposureGrace = exposureGrace
            self.fitRidge = fitRidge
        }

        /// Whether a feed must read the ledger's neighbourhood (`coLikes`) for this model.
        public var readsCoLikes: Bool {
            collaborativeWeight > 0 && (uses(.coLiked) || uses(.likesYourType))
        }

        /// The feed's model: RECON's harmonic mean and the prior fitted to
        /// a market of 1,000, as the cross-validation of `make bench-ranking`
        /// chose on nights 1–10 (in each of the 10 folds, on the other nine
        /// nights, and on all ten), and the exposure grace of 3 its training
        /// towns chose. Off: the signals that did not help on held-out
        /// nights or in the town (Documentation/Discovery.md, the ablation),
        /// the collaborative two among them (weight 0: nothing is read for
        /// them); they are not in `why` either. On: the fitted appeal and
        /// generosity (`appeal`) in place of the like rates, whenever a fit
        /// is stored (ridge `Ranking.fitRidge`, chosen in 7 of 10 folds).
        public static let standard = Model(
            aggregation: .harmonic, prior: .market, sharedWeight: 0, collaborativeWeight: 0,
            off: [.sharedInterests, .activity, .distance, .newcomer, .coLiked, .likesYourType])

        public func uses(_ signal: Signal) -> Bool { !off.contains(signal) }

        /// The same model with `signal` left out too.
        public func without(_ signal: Signal) -> Model {
            var model = self
            model.off.insert(signal)
            return model
        }
    }
}
