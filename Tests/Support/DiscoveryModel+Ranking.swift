import Foundation
import SwipeCore

/// A brute-force model of README "Ranking" (Documentation/Discovery.md, "Ranking") for the feeds' model
/// tests, written from the contract apart from `Ranking`: every count is
/// taken by walking the scenario's ledger, every candidate is scored from
/// those counts, and the feed's order after the likers is the sort of the
/// window's candidates by (acted before never acted, score, tie hash).
///
/// The batch rule (README "Ranking"), as `cardByCard` deals: the window is
/// ranked once and the next cards are that ranking's next ones still
/// eligible and not in the deck, until it is used up; then the window is
/// ranked again, with every card dealt so far counted. A liker dealt drops
/// the ranking (likers first; the next card after them is ranked afresh).
///
/// The scenarios are small (under `Ranking.window` eligible profiles), so
/// the window is every eligible profile but the likers and the deck.
extension DiscoveryModel {
    /// What the ranking knows, per person (index as in the scenario).
    public struct RankState {
        public var given: [Int], givenLikes: [Int], received: [Int], receivedLikes: [Int]
        public var lastActive: [Date?]
        /// Times dealt (all at the one moment of the test, so all within 24 hours).
        public var dealt: [Int]
        /// The stored fit (README "Ranking"), as the store returned it: its
        /// mean, and per person their appeal and generosity (nil: not
        /// fitted, 0). nil: never fitted, and the like rates rank.
        public var fit: (mean: Double, appeal: [Double?], generosity: [Double?])?

        /// The counts the ledger of `s` gives, decisions at `start` + their time.
        public init(_ s: Scenario, start: Date) {
            let n = s.people.count
            given = Array(repeating: 0, count: n)
            givenLikes = given; received = given; receivedLikes = given; dealt = given
            lastActive = Array(repeating: nil, count: n)
            for choice in s.decisions {
                let at = start.addingTimeInterval(Double(choice.time))
                lastActive[choice.viewer] = max(lastActive[choice.viewer] ?? at, at)
                guard !choice.undone else { continue }
                given[choice.viewer] += 1
                received[choice.profile] += 1
                if choice.decision != .hate {
                    givenLikes[choice.viewer] += 1
                    receivedLikes[choice.profile] += 1
                }
            }
        }

        /// `viewer` decided `profile` at `at` (a standing decision).
        public mutating func decide(_ viewer: Int, _ profile: Int, _ decision: Decision, at: Date) {
            given[viewer] += 1
            received[profile] += 1
            if decision != .hate {
                givenLikes[viewer] += 1
                receivedLikes[profile] += 1
            }
            lastActive[viewer] = max(lastActive[viewer] ?? at, at)
        }

        public mutating func act(_ viewer: Int, at: Date) { lastActive[viewer] = max(lastActive[viewer] ?? at, at) }
    }

    static func genderKey(_ gender: String?) -> String? {
        gender.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// FNV-1a, 64 bits, over the viewer's id, a zero byte and the candidate's id.
    public static func fnv(_ viewer: String, _ candidate: String) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in Array(viewer.utf8) + [0] + Array(candidate.utf8) { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return h
    }

    /// The order `viewer`'s feed deals at `now`, the deck holding `deck`:
    /// the likers as `expectedFeed` has them, then the window ranked.
    public static func expectedRankedFeed(
        _ s: Scenario, viewer v: Int, state: RankState, now: Date, deck: Set<String> = []
    ) -> [String] {
        let (likers, ranked) = expectedRanking(s, viewer: v, state: state, now: now, deck: deck)
        return likers + ranked
    }

    /// The likers waiting, and the window as a ranking at `now` orders it.
    public static func expectedRanking(
        _ s: Scenario, viewer v: Int, state: RankState, now: Date, deck: Set<String>
    ) -> (likers: [String], ranked: [String]) {
        let eligible = expectedFeed(s, viewer: v)
        let standing = s.decisions.filter { !$0.undone }
        let likerIDs = Set(standing.filter { $0.profile == v && $0.decision != .hate }.map { s.people[$0.viewer].id })
        let likers = eligible.filter { likerIDs.contains($0) && !deck.contains($0) }
        let index = Dictionary(uniqueKeysWithValues: s.people.enumerated().map { ($1.id, $0) })
        let window = eligible.filter { !likerIDs.contains($0) && !deck.contains($0) }.map { index[$0]! }

        // The market (README "Ranking"): the 1,000 people who acted most
        // recently (latest act first, ties by the later key first), taken in
        // key order; when nobody has acted yet, the viewer and the window
        // instead, in the order of their ids.
        let recent = s.people.indices.filter { state.lastActive[$0] != nil }
            .sorted { (state.lastActive[$0]!, $0) > (state.lastActive[$1]!, $1) }.prefix(1_000)
        let market =
            recent.isEmpty ? ([v] + window).sorted { s.people[$0].id < s.people[$1].id } : recent.sorted()
        // Base rates per gender over the market, toward 1/2 with weight 10.
        var sums: [String: [Int]] = [:]
        var all = [0, 0, 0, 0]
        for p in market {
            let counts = [state.givenLikes[p], state.given[p], state.receivedLikes[p], state.received[p]]
            sums[genderKey(s.people[p].gender) ?? "", default: [0, 0, 0, 0]] = zip(
                sums[genderKey(s.people[p].gender) ?? ""] ?? [0, 0, 0, 0], counts
            ).map { $0 + $1 }
            all = zip(all, counts).map { $0 + $1 }
        }
        func toward(_ likes: Int, _ n: Int) -> Double { (Double(likes) + 5) / (Double(n) + 10) }
        func bound(_ p: Double) -> Double { min(0.98, max(0.02, p)) }
        // The prior's weight in decisions, fitted to the market (README
        // "Ranking"): per gender of 2 or more people with decisions whose
        // pooled rate is neither 0 nor 1, each such person's squared
        // deviation from it over m(1 − m), and 1/n; their means s and i over
        // all such people (3 at least, i under 1, else 3 decisions) give
        // ρ = (s − i)/(1 − i) within 0.02–0.98 and the weight 1/ρ − 1. Summed
        // by gender in order, each gender's people in the market's order.
        func fitted(_ likes: [Int], _ counts: [Int]) -> Double {
            var byGender: [String: [Int]] = [:]
            for p in market where counts[p] > 0 {
                byGender[genderKey(s.people[p].gender) ?? "", default: []].append(p)
            }
            var spread = 0.0, inverse = 0.0, people = 0
            for gender in byGender.keys.sorted() {
                let group = byGender[gender]!
                let m = Double(group.map { likes[$0] }.reduce(0, +)) / Double(group.map { counts[$0] }.reduce(0, +))
                guard group.count >= 2, m > 0, m < 1 else { continue }
                for p in group {
                    let deviation = Double(likes[p]) / Double(counts[p]) - m
                    spread += deviation * deviation / (m * (1 - m))
                    inverse += 1 / Double(counts[p])
                    people += 1
                }
            }
            let sMean = spread / Double(people), iMean = inverse / Double(people)
            guard people >= 3, iMean < 1 else { return 3 }
            let rho = min(0.98, max(0.02, (sMean - iMean) / (1 - iMean)))
            return 1 / rho - 1
        }
        let givenWeight = fitted(state.givenLikes, state.given)
        let receivedWeight = fitted(state.receivedLikes, state.received)
        func rates(_ p: Int) -> (given: Double, received: Double, base: Double) {
            let t = sums[genderKey(s.people[p].gender) ?? ""]
            let baseGiven = t.map { toward($0[0], $0[1]) } ?? toward(all[0], all[1])
            let baseReceived = t.map { toward($0[2], $0[3]) } ?? toward(all[2], all[3])
            return (
                bound((Double(state.givenLikes[p]) + givenWeight * baseGiven) / (Double(state.given[p]) + givenWeight)),
                bound(
                    (Double(state.receivedLikes[p]) + receivedWeight * baseReceived)
                        / (Double(state.received[p]) + receivedWeight)),
                bound(baseGiven)
            )
        }
        func odds(_ p: Double) -> Double { log(p / (1 - p)) }
        func chance(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
        let me = rates(v)
        let acted = window.filter { state.lastActive[$0] != nil }
        let share = acted.isEmpty ? 0 : Double(acted.map { state.dealt[$0] }.reduce(0, +)) / Double(acted.count)
        // Over the mean, plus three: sinks (README "Ranking").
        let fair = share + 3
        // The harmonic mean of the chance V likes C and the chance C likes
        // V, then the exposure bound: nothing else (no activity decay,
        // distance, shared interests, newcomer lift or collaborative
        // signal: README "Ranking").
        // With a fit stored, each side's chance is σ(mean + generosity of
        // the one who decides + appeal of the one decided about), in place
        // of the rates.
        func score(_ c: Int) -> Double {
            let them = rates(c)
            var iLike = chance(odds(me.given) + odds(them.received) - odds(me.base))
            var theyLike = chance(odds(them.given) + odds(me.received) - odds(them.base))
            if let fit = state.fit {
                iLike = chance(fit.mean + (fit.generosity[v] ?? 0) + (fit.appeal[c] ?? 0))
                theyLike = chance(fit.mean + (fit.generosity[c] ?? 0) + (fit.appeal[v] ?? 0))
            }
            var x = 2 * iLike * theyLike / (iLike + theyLike)
            let dealt = Double(state.dealt[c])
            if state.lastActive[c] != nil && dealt > fair { x *= (fair / dealt) * (fair / dealt) }
            return x
        }
        let ranked = window.map { c in
            (c, state.lastActive[c] == nil ? 0 : 1, score(c), fnv(s.people[v].id, s.people[c].id))
        }
        .sorted { a, b in
            if a.1 != b.1 { return a.1 > b.1 }
            if a.2 != b.2 { return a.2 > b.2 }
            if a.3 != b.3 { return a.3 < b.3 }
            return a.0 < b.0
        }
        return (likers, ranked.map { s.people[$0.0].id })
    }
}

extension DiscoveryModel {
    /// One viewer's session card by card, as a deck of four that keeps its
    /// cards deals them, the oldest card decided (hate, at `now`) once four
    /// were dealt: the feed under test through `fetch` (the deck's ids in,
    /// the next card out) and `hate`, the model beside it. Opening the feed
    /// is an act, every dealt card counts as dealt, every hate counts for
    /// both sides: `s` and `state` come out as the store should now be.
    /// The model deals by the batch rule (above): a liker first when one
    /// waits, else the ranking's next card still eligible and not in the
    /// deck, else a fresh ranking's first.
    /// With `elsewhere`, after each card someone else decides, as another
    /// process would (`elsewhere(viewer, profile)`, a like at `now`): every
    /// fourth time someone likes the viewer (a new liker), else someone likes
    /// the last card of the ranking being dealt, which a fresh ranking would
    /// move up (the batch rule keeps its place).
    /// Returns what the feed dealt and what the model says it should have.
    public static func cardByCard(
        _ s: inout Scenario, viewer v: Int, state: inout RankState, now: Date, start: Date,
        fetch: (Set<String>) throws -> String?, hate: (String) throws -> Void,
        elsewhere: ((String, String) throws -> Void)? = nil
    ) throws -> (dealt: [String], expected: [String]) {
        let index = Dictionary(uniqueKeysWithValues: s.people.enumerated().map { ($1.id, $0) })
        state.act(v, at: now)
        var dealt: [String] = [], expected: [String] = []
        let bound = expectedFeed(s, viewer: v).count + 4
        // The ranking being dealt from: what is left of it, best first.
        var batch: [String] = []
        while true {
            let deck = Set(dealt.suffix(4))
            let eligible = Set(expectedFeed(s, viewer: v))
            let (likers, _) = expectedRanking(s, viewer: v, state: state, now: now, deck: deck)
            var modelNext = likers.first
            if modelNext != nil {
                batch = []
            } else {
                while let first = batch.first, !eligible.contains(first) || deck.contains(first) { batch.removeFirst() }
                if batch.isEmpty { batch = expectedRanking(s, viewer: v, state: state, now: now, deck: deck).ranked }
                if !batch.isEmpty { modelNext = batch.removeFirst() }
            }
            let next = try fetch(deck)
            if let modelNext { expected.append(modelNext) }
            guard let next else { break }
            dealt.append(next)
            // Counted as dealt (what the feed dealt, so a wrong card does not derail the rest).
            state.dealt[index[next]!] += 1
            if dealt.count >= 4 {
                let decided = dealt[dealt.count - 4]
                try hate(decided)
                s.decisions.append(
                    Choice(
                        viewer: v, profile: index[decided]!, decision: .hate,
                        time: Int(now.timeIntervalSince(start)), undone: false))
                state.decide(v, index[decided]!, .hate, at: now)
            }
            if let elsewhere, let t = dealt.count % 4 == 3 ? v : batch.last.map({ index[$0]! }) {
                let n = s.people.count
                let standing = s.decisions.filter { !$0.undone }
                let others = (0..<n).map { (v + 1 + 7 * dealt.count + $0) % n }
                if let u = others.first(where: { u in
                    u != v && u != t && !standing.contains { $0.viewer == u && $0.profile == t }
                        && !s.blocks.contains { $0 == (u, t) || $0 == (t, u) }
                }) {
                    try elsewhere(s.people[u].id, s.people[t].id)
                    s.decisions.append(
                        Choice(
                            viewer: u, profile: t, decision: .like, time: Int(now.timeIntervalSince(start)),
                            undone: false))
                    state.decide(u, t, .like, at: now)
                }
            }
            if dealt.count > bound { break }
        }
        return (dealt, expected)
    }
}

extension DiscoveryModel {
    /// `ids` in the order of the viewer's tie hash: the feed's order after
    /// the likers among candidates the ranking cannot tell apart (none has
    /// acted, so the exposure rule does not apply, and none has decided).
    public static func tieOrder(_ viewer: String, _ ids: [String]) -> [String] {
        ids.sorted { fnv(viewer, $0) < fnv(viewer, $1) }
    }
}
