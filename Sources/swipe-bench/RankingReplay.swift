import Foundation
import SwipeCore
@_spi(Benchmarks) import SwipeSQLite
import SwipeStore

/// The speed-dating replay of `make bench-ranking`, cross-validated by night
/// (issue 38): the first half of each night's real decisions imported as
/// history; per viewer, their second-half partners in the order a ranking
/// deals them, judged by the second half (the data folder's README).
///
/// Leave one night out: for each of nights 1–10, every choice a ranking has
/// (the feed's model, the plain ranker's smoothing) is made on the other nine
/// nights alone, by their mean precision@3, and the judged night is replayed
/// through the real feed (`SQLiteFeed`, looking only) with that choice. The
/// history of the judged night is the feed's input, as in use; its second
/// half is never seen before it is judged.
struct RankingReplay {
    var speedDating: String
    var directory: String
    var seed: UInt64

    /// One viewer's outcome under one ranking: the night, the mutual likes
    /// among the first `cards` partners dealt (an expectation for random
    /// order), whether the first was one, and 1/rank of the first mutual like (0: none).
    struct Outcome {
        var night: Int
        var hits: Double
        var cards: Int
        var first: Double
        var reciprocal: Double
    }

    /// A ranking's outcomes on every viewer, in viewer order.
    typealias Outcomes = [Outcome]

    // MARK: The data

    let ids: [String]
    let nightOf: [String: Int]
    let keyOf: [String: Int]
    let likes: [Pair: Bool]
    let partners: [String: Set<String>]
    /// Viewers with second-half partners, in key order.
    let viewers: [String]
    /// From history alone: decisions given and received, and the likes among them.
    let given: [String: (likes: Int, count: Int)]
    let received: [String: (likes: Int, count: Int)]
    let end: Date
    let store: SQLiteStore

    static let nights = Array(1...10)

    init(speedDating: String, directory: String, seed: UInt64, store: SQLiteStore) throws {
        self.speedDating = speedDating
        self.directory = directory
        self.seed = seed
        self.store = store
        _ = try store.importProfiles(path: speedDating + "/profiles.csv", options: ImportOptions())
        _ = try store.importDecisions(path: speedDating + "/history.csv", options: ImportOptions())
        let profiles = try CSVLines(path: speedDating + "/profiles.csv")
        ids = profiles.map { $0[0] }
        keyOf = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        // The night is the city column: "Night N".
        nightOf = Dictionary(
            uniqueKeysWithValues: profiles.map { ($0[0], Int($0[4].split(separator: " ").last ?? "") ?? 0) })
        var likes: [Pair: Bool] = [:]
        for row in try CSVLines(path: speedDating + "/future.csv") { likes[Pair(row[0], row[1])] = row[2] != "hate" }
        self.likes = likes
        var partners: [String: Set<String>] = [:]
        for pair in likes.keys where likes[Pair(pair.b, pair.a)] != nil { partners[pair.a, default: []].insert(pair.b) }
        self.partners = partners
        viewers = ids.filter { !(partners[$0] ?? []).isEmpty }
        let history = try CSVLines(path: speedDating + "/history.csv")
        var given: [String: (likes: Int, count: Int)] = [:], received: [String: (likes: Int, count: Int)] = [:]
        for row in history {
            let liked = row[2] != "hate" ? 1 : 0
            given[row[0], default: (0, 0)].likes += liked
            given[row[0], default: (0, 0)].count += 1
            received[row[1], default: (0, 0)].likes += liked
            received[row[1], default: (0, 0)].count += 1
        }
        self.given = given
        self.received = received
        end = history.compactMap { Timestamp.date(from: $0[3]) }.max() ?? Date()
    }

    func mutual(_ v: String, _ c: String) -> Bool { likes[Pair(v, c)] == true && likes[Pair(c, v)] == true }

    /// A viewer's outcome when their partners come in `order` (all of them).
    func outcome(_ viewer: String, _ order: [String]) -> Outcome {
        let wanted = min(3, partners[viewer]!.count)
        let hits = order.prefix(wanted).filter { mutual(viewer, $0) }.count
        let firstMutual = order.firstIndex { mutual(viewer, $0) }
        return Outcome(
            night: nightOf[viewer]!, hits: Double(hits), cards: wanted,
            first: order.first.map { mutual(viewer, $0) ? 1 : 0 } ?? 0,
            reciprocal: firstMutual.map { 1 / Double($0 + 1) } ?? 0)
    }

    // MARK: The rankings

    /// swipe's feed with `model`: each viewer's partners in the order the
    /// real feed deals them, at the end of the history, writing nothing.
    func feed(_ model: Ranking.Model) throws -> Outcomes {
        // The fit the model reads, refitted with its ridge on the history
        // alone, as the import's own refit does (a few milliseconds).
        if model.uses(.appeal) { try store.refitRanking(ridge: model.fitRidge, at: end) }
        return try viewers.map { viewer in
            let mine = partners[viewer]!
            let feed = try SQLiteFeed(
                store: store, viewer: viewer, options: .init(records: false, clock: { end }, model: model))
            var dealt: Set<String> = [], order: [String] = []
            while order.count < mine.count, let next = try feed.nextProfiles(limit: 1, excluding: dealt).first {
                dealt.insert(next.id)
                if mine.contains(next.id) { order.append(next.id) }
            }
            return outcome(viewer, order)
        }
    }

    /// The plain ranker: like rate received × like rate given, each smoothed
    /// toward one half with `weight` decisions, from history alone; ties by key.
    func plain(weight: Double) -> Outcomes {
        func rate(_ t: (likes: Int, count: Int)?) -> Double {
            (Double(t?.likes ?? 0) + weight / 2) / (Double(t?.count ?? 0) + weight)
        }
        return viewers.map { viewer in
            let scored = partners[viewer]!.map { ($0, rate(received[$0]) * rate(given[$0])) }
            let order = scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : keyOf[$0.0]! < keyOf[$1.0]! }.map(\.0)
            return outcome(viewer, order)
        }
    }

    /// Key order (the order of profiles.csv).
    func keyOrder() -> Outcomes {
        viewers.map { viewer in outcome(viewer, partners[viewer]!.sorted { keyOf[$0]! < keyOf[$1]! }) }
    }

    /// Random order, in expectation (exact): with m mutual likes among n
    /// partners, m/n of each card is one, and the first comes at rank k with
    /// probability C(n − k, m − 1)/C(n, m).
    func randomOrder() -> Outcomes {
        viewers.map { viewer in
            let mine = partners[viewer]!
            let n = mine.count, m = mine.filter { mutual(viewer, $0) }.count
            let wanted = min(3, n)
            var reciprocal = 0.0
            if m > 0 {
                // P(first at k) = C(n−k, m−1) / C(n, m), by a running product.
                for k in 1...(n - m + 1) {
                    reciprocal += Self.choose(n - k, m - 1) / Self.choose(n, m) / Double(k)
                }
            }
            return Outcome(
                night: nightOf[viewer]!, hits: Double(wanted * m) / Double(n), cards: wanted,
                first: Double(m) / Double(n), reciprocal: reciprocal)
        }
    }

    static func choose(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return 0 }
        var result = 1.0
        for i in 0..<k { result = result * Double(n - i) / Double(i + 1) }
        return result
    }

    // MARK: Cross-validation

    /// Precision@3 per night (mutual likes over cards, within the night).
    static func precisionByNight(_ outcomes: Outcomes) -> [Int: Double] {
        var hits: [Int: Double] = [:], cards: [Int: Int] = [:]
        for o in outcomes {
            hits[o.night, default: 0] += o.hits
            cards[o.night, default: 0] += o.cards
        }
        return hits.reduce(into: [:]) { $0[$1.key] = $1.value / Double(cards[$1.key]!) }
    }

    /// Leave one night out over `family` (its first member wins ties): per
    /// judged night, the member with the best mean precision@3 over the other
    /// nights; the judged night's viewers take that member's outcomes.
    /// Returns the outcomes so assembled and the member chosen per night.
    static func crossValidate<Key>(_ family: [(key: Key, outcomes: Outcomes)]) -> (
        outcomes: Outcomes, chosen: [Int: Key]
    ) {
        let byNight = family.map { precisionByNight($0.outcomes) }
        var chosen: [Int: Int] = [:]
        for judged in nights {
            var best = 0, bestScore = -Double.infinity
            for (i, scores) in byNight.enumerated() {
                let others = nights.filter { $0 != judged }.map { scores[$0] ?? 0 }
                let mean = others.reduce(0, +) / Double(others.count)
                if mean > bestScore + 1e-12 {
                    best = i
                    bestScore = mean
                }
            }
            chosen[judged] = best
        }
        let outcomes = family[0].outcomes.indices.map { v in
            family[chosen[family[0].outcomes[v].night]!].outcomes[v]
        }
        return (outcomes, chosen.mapValues { family[$0].key })
    }

    /// The member `crossValidate` would choose on all nights: the one the feed ships with.
    static func bestOnAll<Key>(_ family: [(key: Key, outcomes: Outcomes)]) -> Key {
        var best = 0, bestScore = -Double.infinity
        for (i, member) in family.enumerated() {
            let scores = precisionByNight(member.outcomes)
            let mean = nights.map { scores[$0] ?? 0 }.reduce(0, +) / Double(nights.count)
            if mean > bestScore + 1e-12 {
                best = i
                bestScore = mean
            }
        }
        return family[best].key
    }

    /// What the table says of one ranking.
    struct Summary {
        var byNight: [Double]
        var mean: Double
        var standardError: Double
        var low: Double, high: Double
        var precisionAt1: Double
        var reciprocalRank: Double
        var cards: Int
    }

    static func meanAndError(_ values: [Double]) -> (mean: Double, error: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (mean, (variance / Double(values.count)).squareRoot())
    }

    /// Per-night precision@3, its mean over the nights and the mean's
    /// standard error, a bootstrap 95% interval of that mean over viewers
    /// (resampled within each night, 2,000 times), and precision@1 and the
    /// mean reciprocal rank of the first mutual like, each a mean over nights
    /// of the night's mean over viewers.
    func summary(_ outcomes: Outcomes) -> Summary {
        let scores = Self.precisionByNight(outcomes)
        let byNight = Self.nights.map { scores[$0] ?? 0 }
        let (mean, error) = Self.meanAndError(byNight)
        let groups = Dictionary(grouping: outcomes, by: \.night)
        func nightMean(_ value: (Outcome) -> Double) -> Double {
            Self.nights.map { n in
                let group = groups[n] ?? []
                return group.map(value).reduce(0, +) / Double(max(1, group.count))
            }.reduce(0, +) / Double(Self.nights.count)
        }
        var random = SplitMix64(seed: seed &+ 38)
        var means: [Double] = []
        for _ in 0..<2_000 {
            var total = 0.0
            for n in Self.nights {
                let group = groups[n] ?? []
                var hits = 0.0, cards = 0
                for _ in group.indices {
                    let o = group[random.int(in: 0...(group.count - 1))]
                    hits += o.hits
                    cards += o.cards
                }
                total += hits / Double(max(1, cards))
            }
            means.append(total / Double(Self.nights.count))
        }
        means.sort()
        return Summary(
            byNight: byNight, mean: mean, standardError: error, low: means[49], high: means[1_950],
            precisionAt1: nightMean(\.first), reciprocalRank: nightMean(\.reciprocal),
            cards: outcomes.reduce(0) { $0 + $1.cards })
    }

    /// The difference of two rankings' per-night precision@3 on the same
    /// folds: its mean and standard error (paired by night).
    func difference(_ a: Outcomes, _ b: Outcomes) -> (mean: Double, error: Double) {
        let x = Self.precisionByNight(a), y = Self.precisionByNight(b)
        return Self.meanAndError(Self.nights.map { (x[$0] ?? 0) - (y[$0] ?? 0) })
    }

    // MARK: The report

    /// The feed's choices: the aggregation of the two directions (RECON's
    /// harmonic mean or the product), the prior's fit (to the window, or to
    /// the market of the `marketSamples` most recently active: either is
    /// fitted, and the sample's size is chosen with it) and the collaborative
    /// signals' weight (0: off, 0.5 or 1) with their neighbourhood
    /// (`neighbourCounts` × `decisionCounts`, chosen only where a
    /// collaborative signal is on). The signals `Model.standard` leaves out
    /// stay out, `off` goes out too, and `on` comes back (the ablation's
    /// "added back": shared interests at the 0.1 set by hand before). Each
    /// list's first value is the shipped default, and the first model wins
    /// ties (`crossValidate`). The fitted model (`Ranking.Fit`, signal
    /// `appeal`) is one more choice beside the like rates: off, or on with a
    /// ridge of `fitRidges` (its prior then changes nothing), the shipped
    /// choice first. Few on purpose: with 10 nights, every choice
    /// more is a chance to fit noise.
    static func grid(off: Set<Ranking.Signal> = [], on: Set<Ranking.Signal> = []) -> [Ranking.Model] {
        let base = Ranking.Model.standard.off.union(off).subtracting(on)
        let standard = Ranking.Model.standard
        // The collaborative options: off, or a weight with a neighbourhood.
        // With both collaborative signals out, their weight and
        // neighbourhood change nothing: off alone.
        var collaborative: [(weight: Double, neighbours: Int, decisionsEach: Int)] = [
            (0, standard.neighbours, standard.decisionsEach)
        ]
        if !base.isSuperset(of: [.coLiked, .likesYourType]) {
            for weight in collaborativeWeights {
                for neighbours in neighbourCounts {
                    for decisionsEach in decisionCounts { collaborative.append((weight, neighbours, decisionsEach)) }
                }
            }
        }
        let priors: [(prior: Ranking.Prior, sample: Int)] =
            [(.fitted, standard.marketSample)] + marketSamples.map { (.market, $0) }
        // Each aggregation × each `choice` (a prior and its sample, a fit's
        // ridge) × each collaborative option.
        func models(
            _ choices: [(prior: Ranking.Prior, sample: Int, ridge: Double)], off: Set<Ranking.Signal>
        ) -> [Ranking.Model] {
            Ranking.Aggregation.allCases.flatMap { aggregation in
                choices.flatMap { choice in
                    collaborative.map {
                        Ranking.Model(
                            aggregation: aggregation, prior: choice.prior,
                            sharedWeight: on.contains(.sharedInterests) ? 0.1 : 0, collaborativeWeight: $0.weight,
                            off: off, marketSample: choice.sample, neighbours: $0.neighbours,
                            decisionsEach: $0.decisionsEach, fitRidge: choice.ridge)
                    }
                }
            }
        }
        let rates = models(priors.map { ($0.prior, $0.sample, standard.fitRidge) }, off: base.union([.appeal]))
        // The fitted model in place of the like rates, its ridge chosen
        // with the aggregation (the prior then changes nothing: the
        // shipped one alone). With the fit out: the like rates alone.
        guard !base.contains(.appeal) else { return rates }
        let fitted = models(fitRidges.map { (standard.prior, standard.marketSample, $0) }, off: base)
        // The shipped choice first: it wins ties.
        return standard.uses(.appeal) ? fitted + rates : rates + fitted
    }

    /// The fit's ridge penalties tried (`Model.fitRidge`), the default first.
    static let fitRidges = candidates([0.5, 1, 2, 4], default: Ranking.fitRidge)

    /// The values a choice tries, the shipped default first: the first
    /// model wins ties (`crossValidate`), so a tie keeps what ships.
    static func candidates<Value: Equatable>(_ values: [Value], default value: Value) -> [Value] {
        [value] + values.filter { $0 != value }
    }

    /// Sizes of the market sample tried (`Model.marketSample`), the default first.
    static let marketSamples = candidates([250, 500, 1_000, 2_000], default: Ranking.marketSample)
    /// The collaborative signals' weights tried besides 0.
    static let collaborativeWeights = [0.5, 1.0]
    /// Neighbours per step (`Model.neighbours`) tried, the default first.
    static let neighbourCounts = candidates([10, 20, 40], default: Ranking.neighbours)
    /// Decisions per neighbour (`Model.decisionsEach`) tried, the default first.
    static let decisionCounts = candidates([15, 30, 60], default: Ranking.decisionsEach)

    static func describe(_ model: Ranking.Model) -> String {
        let prior: String
        switch model.prior {
        case .fitted: prior = "prior fitted to the window"
        case .market: prior = "prior fitted to a market of \(model.marketSample)"
        case .fixed(let weight): prior = String(format: "prior of %g decisions", weight)
        }
        let rates = model.uses(.appeal) ? String(format: "fitted appeal (ridge %g)", model.fitRidge) : prior
        var text =
            "\(model.aggregation.rawValue), \(rates), collaborative \(String(format: "%g", model.collaborativeWeight))"
        if model.readsCoLikes { text += " (neighbours \(model.neighbours), decisions each \(model.decisionsEach))" }
        return text
    }

    /// The models chosen per fold, most chosen first, as "model (n of 10)".
    static func tally(_ chosen: [Int: Ranking.Model]) -> String {
        Dictionary(grouping: nights, by: { describe(chosen[$0]!) })
            .sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
            .map {
                "\($0.key) (\($0.value.count) of 10: nights \($0.value.sorted().map(String.init).joined(separator: ", ")))"
            }
            .joined(separator: "; ")
    }

    static let plainWeights: [Double] = [2, 1, 4, 8, 16]

    /// The signals the ablation switches (nights and town): every one, or
    /// those `SWIPE_RANKING_ABLATION` names (raw values, comma-separated),
    /// for a run that re-measures a few (the collaborative two alone take
    /// most of a full run's time).
    static let ablated: [Ranking.Signal] = {
        guard let names = ProcessInfo.processInfo.environment["SWIPE_RANKING_ABLATION"] else {
            return Ranking.Signal.allCases
        }
        let wanted = Set(names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return Ranking.Signal.allCases.filter { wanted.contains($0.rawValue) }
    }()

    /// The cross-validated feed over `grid(off:on:)`, and the choices per night.
    func crossValidatedFeed(off: Set<Ranking.Signal> = [], on: Set<Ranking.Signal> = []) throws -> (
        outcomes: Outcomes, chosen: [Int: Ranking.Model], family: [(key: Ranking.Model, outcomes: Outcomes)]
    ) {
        let family = try Self.grid(off: off, on: on).map { (key: $0, outcomes: try feed($0)) }
        let (outcomes, chosen) = Self.crossValidate(family)
        return (outcomes, chosen, family)
    }

    /// The report, and per signal of the ablation the model its
    /// cross-validation takes on all 10 nights (the town's ablation runs it).
    func run() throws -> (text: String, ablationChoice: [Ranking.Signal: Ranking.Model]) {
        var ablationChoice: [Ranking.Signal: Ranking.Model] = [:]
        let feedCV = try crossValidatedFeed()
        let plainFamily = Self.plainWeights.map { (key: $0, outcomes: plain(weight: $0)) }
        let plainCV = Self.crossValidate(plainFamily)
        let before = try feed(
            Ranking.Model(aggregation: .product, prior: .fixed(3), sharedWeight: 0.1, off: [.appeal]))
        let rows: [(String, Outcomes, String)] = [
            ("random order (exact expectation)", randomOrder(), ""),
            ("key order", keyOrder(), ""),
            ("plain: received × given, smoothed toward ½ (weight by CV)", plainCV.outcomes, ""),
            ("swipe's feed (model by CV)", feedCV.outcomes, "≥ 0.28, and ≥ plain + 1 SE"),
            ("swipe's feed before issue 38 (constants set by hand on these nights, not CV)", before, ""),
        ]
        var text = """
            Speed-dating nights 1–10, leave one night out: every choice made on the other 9 nights, \
            the judged night replayed through the real feed. \(rows[0].1.count) viewers, \
            \(rows[0].1.reduce(0) { $0 + $1.cards }) cards.

            | ranking | precision@3, nights 1–10 | mean ± SE | bootstrap 95% over viewers \
            | precision@1 | MRR, first mutual like | − plain, paired by night | target |
            |---|---|---:|---|---:|---:|---:|---|

            """
        for (name, outcomes, target) in rows {
            let s = summary(outcomes)
            let d = difference(outcomes, plainCV.outcomes)
            let met =
                target.isEmpty
                ? ""
                : (s.mean >= 0.28 && s.mean - summary(plainCV.outcomes).mean >= s.standardError ? " yes" : " **no**")
            text +=
                "| \(name) | \(s.byNight.map { String(format: "%.2f", $0) }.joined(separator: " ")) "
                + String(
                    format: "| %.3f ± %.3f | %.3f–%.3f | %.3f | %.3f ", s.mean, s.standardError, s.low, s.high,
                    s.precisionAt1, s.reciprocalRank)
                + String(format: "| %+.3f ± %.3f ", d.mean, d.error) + "| \(target)\(met) |\n"
        }
        let chosen = Self.tally(feedCV.chosen)
        let plainChosen = Dictionary(grouping: Self.nights, by: { plainCV.chosen[$0]! })
            .sorted { $0.value.count > $1.value.count }
            .map { String(format: "weight %g (%d of 10)", $0.key, $0.value.count) }.joined(separator: "; ")
        text += "\nThe feed's choice per fold: \(chosen). On all 10 nights (`Ranking.Model.standard`): "
        text += "\(Self.describe(Self.bestOnAll(feedCV.family))). The plain ranker's: \(plainChosen).\n"

        // The ablation: each signal off in turn (or, if the feed leaves it
        // out, added back), the same cross-validation.
        text += """

            Ablation, the same folds: each signal of the feed off in turn (a signal the feed leaves out: \
            added back), the model still chosen per fold on the other 9 nights. Effect of the signal: the \
            cross-validated mean with it minus the mean without it, paired by night (positive: it helps on \
            held-out nights).

            | signal | in the feed | mean ± SE with it switched | effect of the signal, paired by night |
            |---|---|---:|---:|

            """
        var choices = ""
        for signal in Self.ablated {
            let inFeed = Ranking.Model.standard.uses(signal)
            let switched = try inFeed ? crossValidatedFeed(off: [signal]) : crossValidatedFeed(on: [signal])
            let s = summary(switched.outcomes)
            let d =
                inFeed ? difference(feedCV.outcomes, switched.outcomes) : difference(switched.outcomes, feedCV.outcomes)
            text +=
                "| \(signal.rawValue) | \(inFeed ? "yes" : "no (added back)") | "
                + String(format: "%.3f ± %.3f | %+.3f ± %.3f |\n", s.mean, s.standardError, d.mean, d.error)
            ablationChoice[signal] = Self.bestOnAll(switched.family)
            if signal == .coLiked || signal == .likesYourType {
                choices += "\nWith \(signal.rawValue) \(inFeed ? "off" : "added back"), the choice per fold: "
                choices += Self.tally(switched.chosen) + ". On all 10 nights: "
                choices += Self.describe(ablationChoice[signal]!) + ".\n"
            }
        }
        return (text + choices, ablationChoice)
    }
}
