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

        public init(
            given: Int = 0, givenLikes: Int = 0, received: Int = 0, receivedLikes: Int = 0,
            lastActiveAt: String? = nil, dealtSince: String? = nil, dealt: Int = 0, dealtTotal: Int = 0
        ) {
            self.given = given
            self.givenLikes = givenLikes
            self.received = received
            self.receivedLikes = receivedLikes
            self.lastActiveAt = lastActiveAt
            self.dealtSince = dealtSince
            self.dealt = dealt
            self.dealtTotal = dealtTotal
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
/// 2. Score, highest first: reciprocal interest P(V likes C) × P(C likes V),
///    times the activity decay, the distance factor, the exposure factor and
///    the new-profile lift.
/// 3. Ties: a hash of the viewer's and the candidate's ids (per viewer, never key order).
public enum Ranking {
    /// Eligible candidates read in key order from the cursor per fetch.
    public static let window = 100
    /// Most recently active profiles looked at per fetch.
    public static let recentWindow = 100
    /// Prior weight of the like rates' smoothing, in decisions.
    static let smoothing = 3.0
    /// Days over which an act's weight falls to 1/e.
    static let activityDays = 7.0
    /// Shift of the like odds (log-odds) per shared interest, up to `sharedCap`.
    static let sharedWeight = 0.1
    static let sharedCap = 3
    /// Dealt more than the window's fair share in 24 h (its active
    /// candidates' mean, plus this one impression of grace): sinks. No
    /// multiple of the mean: at twice the mean the bound bit almost no one,
    /// as even the most-liked fifth was dealt under twice the mean (the town
    /// of `make bench-ranking`: exposure Gini 0.40–0.44 over four seeds,
    /// 0.31–0.35 with the mean itself, for 2–8% fewer matches).
    static let exposureGrace = 1.0
    /// A newly active profile (few impressions, few decisions) is lifted by this factor.
    static let newLift = 1.5
    static let newImpressions = 5

    /// Base like rates (given, received) per gender key in the window: the
    /// rates the profiles' own are smoothed toward.
    struct Bases {
        var given: [String: Double] = [:]
        var received: [String: Double] = [:]
        var allGiven = 0.5
        var allReceived = 0.5

        init(_ stats: [(gender: String?, stats: Discovery.RankStats)]) {
            var sums: [String: (g: Int, gl: Int, r: Int, rl: Int)] = [:]
            var all = (g: 0, gl: 0, r: 0, rl: 0)
            for (gender, s) in stats {
                let key = gender ?? ""
                var t = sums[key] ?? (0, 0, 0, 0)
                t.g += s.given; t.gl += s.givenLikes; t.r += s.received; t.rl += s.receivedLikes
                sums[key] = t
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
        }
    }

    static func clamp(_ p: Double) -> Double { min(0.98, max(0.02, p)) }
    static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// A profile's like rate given (generosity) and received, smoothed toward its gender's.
    static func rates(_ profile: Profile, _ s: Discovery.RankStats, _ bases: Bases) -> (
        given: Double, received: Double, base: Double
    ) {
        let gender = Discovery.genderKey(of: profile) ?? ""
        let baseGiven = bases.given[gender] ?? bases.allGiven
        let baseReceived = bases.received[gender] ?? bases.allReceived
        let given = clamp((Double(s.givenLikes) + smoothing * baseGiven) / (Double(s.given) + smoothing))
        let received = clamp((Double(s.receivedLikes) + smoothing * baseReceived) / (Double(s.received) + smoothing))
        return (given, received, clamp(baseGiven))
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
        for byte in Array(viewer.utf8) + [0] + Array(candidate.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// The score of each candidate (higher first), on the window as given.
    public static func scores(
        viewer: Profile, viewerStats: Discovery.RankStats, candidates: [Discovery.RankCandidate], now: Date
    ) -> [Double] {
        let bases = Bases(
            [(Discovery.genderKey(of: viewer), viewerStats)]
                + candidates.map { (Discovery.genderKey(of: $0.profile), $0.stats) })
        let me = rates(viewer, viewerStats, bases)
        // The fair share: the mean times dealt in 24 h among the window's active candidates.
        let active = candidates.filter { $0.stats.lastActiveAt != nil }
        let share =
            active.isEmpty
            ? 0 : Double(active.reduce(0) { $0 + $1.stats.dealtRecently(now: now) }) / Double(active.count)
        let fair = share + exposureGrace
        return candidates.map { c in
            let them = rates(c.profile, c.stats, bases)
            let shared = Double(min(sharedInterests(viewer, c.profile).count, sharedCap)) * sharedWeight
            let iLike = sigmoid(logit(me.given) + logit(them.received) - logit(me.base) + shared)
            let theyLike = sigmoid(logit(them.given) + logit(me.received) - logit(them.base) + shared)
            var score = iLike * theyLike
            if let days = daysSince(c.stats.lastActiveAt, now: now) { score *= exp(-days / activityDays) }
            if let km = distanceKm(viewer, c.profile) { score /= 1 + km / 100 }
            // Exposure is rationed among those who use the app: the others rank below them all anyway.
            let dealt = Double(c.stats.dealtRecently(now: now))
            if c.stats.lastActiveAt != nil && dealt > fair { score *= (fair / dealt) * (fair / dealt) }
            if isNew(c.stats) { score *= newLift }
            return score
        }
    }

    /// The window in the feed's order: acted before never acted, then score,
    /// then the viewer's tie hash.
    public static func order(
        viewer: Profile, viewerStats: Discovery.RankStats, candidates: [Discovery.RankCandidate], now: Date
    ) -> [Discovery.RankCandidate] {
        let scores = scores(viewer: viewer, viewerStats: viewerStats, candidates: candidates, now: now)
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
    /// like or superlike of the viewer, which `likes` lists).
    public static func reasons(
        viewer: Profile, candidate: Profile, stats: Discovery.RankStats, liker: Decision?, now: Date
    ) -> [String] {
        var reasons: [String] = []
        switch liker {
        case .superlike?: reasons.append("superlikes you")
        case .like?: reasons.append("likes you")
        default: break
        }
        if let km = distanceKm(viewer, candidate) {
            // As the page shows it (`Discovery.shownDistanceKm`): never under 1 km.
            reasons.append("\(max(1, Int(km))) km away")
        }
        let shared = sharedInterests(viewer, candidate)
        if !shared.isEmpty {
            reasons.append(
                shared.count == 1
                    ? "1 shared interest: \(shared[0])"
                    : "\(shared.count) shared interests: \(shared.joined(separator: ", "))")
        }
        if isNew(stats) { reasons.append("new here") }
        if let days = daysSince(stats.lastActiveAt, now: now) {
            if days < 1 { reasons.append("active today") } else if days < 7 { reasons.append("active this week") }
        }
        return reasons
    }
}
