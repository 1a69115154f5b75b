import Foundation
import SwipeCore
@_spi(Benchmarks) import SwipeSQLite
import SwipeStore

/// `make bench-ranking` (BENCHMARKS.md, the ranking rows): does the
/// feed match people? Two measures, each beside key order and a random order
/// on the same data:
///
/// 1. The speed-dating replay, cross-validated by night (`RankingReplay`):
///    the first half of each night's real decisions imported as history, then
///    per viewer the first 3 cards dealt among their second-half partners,
///    scored by the second half (the data folder's README): precision@3 of
///    mutual likes, beside random order, key order and the plain ranker.
/// 2. A simulated town: 2,000 profiles of whom 300 use the app, each swiping
///    10 cards a day for 4 days through the real feed (`SQLiteFeed`,
///    `Store.record`), deciding by a hidden taste model; key order and
///    likers-first-then-random simulated beside it on the same town and
///    taste. Matches per 100 swipes, and the exposure Gini among the 300.
struct RankingBench {
    var speedDating: String
    var seed: UInt64 = 20
    var directory: String

    struct Line {
        var measure: String
        var order: String
        var value: Double
        var target: String
    }

    /// Which parts to run (both by default).
    var parts: Set<String> = ["replay", "town"]

    /// The report: the replay's tables, then the town's.
    func run() throws -> String {
        var text = ""
        var ablationChoice: [Ranking.Signal: Ranking.Model] = [:]
        if parts.contains("replay") {
            let replay = try replay()
            text += replay.text + "\n"
            ablationChoice = replay.ablationChoice
        }
        if parts.contains("town") { text += "\n" + (try town(ablationChoice: ablationChoice)) }
        return text
    }

    static func table(_ lines: [Line]) -> String {
        var text = "| measure | order | value | target |\n|---|---|---:|---|\n"
        for line in lines {
            text += "| \(line.measure) | \(line.order) | \(String(format: "%.3f", line.value)) | \(line.target) |\n"
        }
        return text
    }

    func freshStore(_ name: String) throws -> SQLiteStore {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return try SQLiteStore(path: path)
    }

    // MARK: The speed-dating replay

    /// The replay, cross-validated by night (`RankingReplay`): its tables.
    func replay() throws -> (text: String, ablationChoice: [Ranking.Signal: Ranking.Model]) {
        try RankingReplay(
            speedDating: speedDating, directory: directory, seed: seed,
            store: try freshStore("ranking-speed-dating.sqlite")
        ).run()
    }

    // MARK: The simulated town

    /// The town and its hidden taste, the same for every order.
    struct Town {
        var ids: [String]
        var gender: [String]
        var active: [Int]
        var attractiveness: [Double]
        var pickiness: [Double]
        var seed: UInt64

        static let size = 2_000, users = 300, days = 4, cardsPerDay = 10

        init(seed: UInt64) {
            self.seed = seed
            var random = SplitMix64(seed: seed)
            ids = (0..<Self.size).map { String(format: "t%04d", $0) }
            gender = (0..<Self.size).map { _ in random.chance(0.5) ? "female" : "male" }
            attractiveness = (0..<Self.size).map { _ in Self.normal(&random) }
            pickiness = (0..<Self.size).map { _ in 0.5 * Self.normal(&random) }
            active = Array((0..<Self.size).shuffled(using: &random).prefix(Self.users)).sorted()
        }

        static func normal(_ random: inout SplitMix64) -> Double {
            let u = max(Double(random.next() >> 11) / Double(1 << 53), 1e-12),
                v = Double(random.next() >> 11) / Double(1 << 53)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }

        /// Whether `viewer` likes `candidate` on this card (the noise is
        /// per pair, so a decision does not depend on the order shown).
        func likes(_ viewer: Int, _ candidate: Int) -> Bool {
            var random = SplitMix64(seed: seed ^ (UInt64(viewer) << 32) ^ UInt64(candidate) ^ 0xA5A5)
            return attractiveness[candidate] - pickiness[viewer] + 0.7 * Self.normal(&random) > 0.8
        }

        /// The true chance that `viewer` likes `candidate` (before the pair's noise).
        func chance(_ viewer: Int, likes candidate: Int) -> Double {
            0.5 * erfc(-((attractiveness[candidate] - pickiness[viewer] - 0.8) / 0.7) / 2.0.squareRoot())
        }

        var csv: String {
            var random = SplitMix64(seed: seed &+ 1)
            let hobbies = [
                "hiking", "jazz", "cooking", "films", "running", "chess", "yoga", "travel", "books", "climbing", "art",
                "games",
            ]
            var text = "id,name,age,gender,city,interests,lat,lon,seeking,max_km\n"
            for (n, id) in ids.enumerated() {
                let interests = hobbies.shuffled(using: &random).prefix(3).joined(separator: ";")
                let lat = 52.5 + Double(random.int(in: -100...100)) / 1000,
                    lon = 13.4 + Double(random.int(in: -100...100)) / 1000
                let seeking = gender[n] == "female" ? "male" : "female"
                text +=
                    "\(id),P \(n),\(random.int(in: 22...40)),\(gender[n]),Town,\(interests),\(lat),\(lon),\(seeking),50\n"
            }
            return text
        }
    }

    struct Outcome {
        var swipes = 0
        var matches = 0
        var impressions: [Int: Int] = [:]

        var perHundred: Double { 100 * Double(matches) / Double(max(1, swipes)) }
        func gini(_ town: Town) -> Double { RankingBench.gini(town.active.map { impressions[$0] ?? 0 }) }
    }

    /// Seeds no constant of the ranking was chosen on (issue 38; the
    /// exposure bound was set on seed 20 and three others near it).
    static let townSeeds: [UInt64] = [1038, 2038, 3038]

    /// Seeds the town's own constant is chosen on, never reported: the
    /// exposure bound's grace (`Model.exposureGrace`).
    static let trainingSeeds: [UInt64] = [20, 21, 22]
    /// The graces tried, the shipped default first (ties go to it).
    static let exposureGraces = RankingReplay.candidates([0.5, 1, 2, 3], default: Ranking.exposureGrace)

    /// The exposure grace chosen on the training seeds: the most matches
    /// per 100 swipes, summed over those seeds, among the graces whose
    /// exposure Gini is ≤ 0.40 on each (the default when none is). Returns
    /// it and a line per grace tried.
    func chooseGrace() throws -> (grace: Double, report: String) {
        var best = Ranking.exposureGrace, bestMatches = -Double.infinity
        var report = ""
        let towns = Self.trainingSeeds.map { Town(seed: $0) }
        for grace in Self.exposureGraces {
            var model = Ranking.Model.standard
            model.exposureGrace = grace
            let outcomes = try towns.map { try townThroughTheFeed($0, model: model) }
            let fair = zip(outcomes, towns).allSatisfy { $0.gini($1) <= 0.40 }
            let matches = outcomes.reduce(0) { $0 + $1.perHundred }
            report +=
                String(format: "| %g | ", grace)
                + zip(outcomes, towns).map { String(format: "%.2f | %.2f", $0.perHundred, $0.gini($1)) }
                .joined(separator: " | ") + " |\n"
            if fair, matches > bestMatches + 1e-9 {
                best = grace
                bestMatches = matches
            }
        }
        return (best, report)
    }

    /// The town on each new seed: swipe's feed beside the references, then
    /// the feed with each signal off (the ablation's town half: the model
    /// the replay's cross-validation takes on all 10 nights with the signal
    /// switched, in `ablationChoice`; `toggled` without it).
    func town(ablationChoice: [Ranking.Signal: Ranking.Model] = [:]) throws -> String {
        let (grace, graceReport) = try chooseGrace()
        var text =
            "The exposure bound's grace, chosen on training towns (seeds "
            + Self.trainingSeeds.map(String.init).joined(separator: ", ")
            + ", never reported): the most matches per 100 swipes with Gini ≤ 0.40 on each. "
            + String(
                format: "Chosen: %g (`Model.standard`: %g).\n\n", grace, Ranking.Model.standard.exposureGrace)
            + "| grace "
            + Self.trainingSeeds.map { "| seed \($0): matches per 100 swipes | exposure Gini " }.joined()
            + "|\n|---:" + String(repeating: "|---:|---:", count: Self.trainingSeeds.count) + "|\n" + graceReport
            + "\n"
        var rows: [(name: String, target: String, cells: [String])] = []
        var feeds: [Outcome] = [], actives: [Outcome] = [], ceilings: [Outcome] = []
        var ablation: [Ranking.Signal: [Outcome]] = [:]
        var references: [(String, [Outcome])] = [
            ("likers first, then active first (those who have swiped), each group in random order", []),
            ("ceiling: by the true chance of a mutual like (the hidden taste), same exposure bound", []),
            ("learned ceiling: the taste's form learned from the ledger so far, every candidate scored", []),
            ("likers first, then random", []), ("key order", []),
        ]
        var learneds: [Outcome] = []
        var towns: [Town] = []
        for seed in Self.townSeeds {
            let town = Town(seed: seed)
            towns.append(town)
            feeds.append(try townThroughTheFeed(town, model: .standard))
            let active = simulate(town, order: .activeFirst), ceiling = simulate(town, order: .ceiling)
            actives.append(active)
            ceilings.append(ceiling)
            references[0].1.append(active)
            references[1].1.append(ceiling)
            let learned = simulate(town, order: .learned)
            learneds.append(learned)
            references[2].1.append(learned)
            references[3].1.append(simulate(town, order: .random))
            references[4].1.append(simulate(town, order: .key))
            for signal in RankingReplay.ablated {
                ablation[signal, default: []].append(
                    try townThroughTheFeed(town, model: ablationChoice[signal] ?? Self.toggled(signal)))
            }
        }
        func cells(_ outcomes: [Outcome]) -> [String] {
            zip(outcomes, towns).map { String(format: "%.2f | %.2f", $0.perHundred, $0.gini($1)) }
        }
        let met = feeds.indices.allSatisfy { i in
            feeds[i].perHundred >= 1.1 * actives[i].perHundred && feeds[i].perHundred >= 0.9 * ceilings[i].perHundred
                && feeds[i].gini(towns[i]) <= 0.40
        }
        rows.append(
            (
                "swipe's feed",
                "≥ 1.1× active first and ≥ 0.9× the ceiling, Gini ≤ 0.40, each seed:"
                    + (met ? " yes" : " **no**"), cells(feeds)
            ))
        for (name, outcomes) in references { rows.append((name, "", cells(outcomes))) }
        for signal in RankingReplay.ablated {
            guard let outcomes = ablation[signal] else { continue }
            let name =
                Ranking.Model.standard.uses(signal)
                ? "swipe's feed without \(signal.rawValue) (ablation)"
                : "swipe's feed with \(signal.rawValue) added back (ablation)"
            rows.append((name, "", cells(outcomes)))
        }
        text +=
            "| the town: 2,000 profiles, 300 using the app, 4 days of 10 swipes "
            + Self.townSeeds.map { "| seed \($0): matches per 100 swipes | exposure Gini " }.joined()
            + "| target |\n|---" + String(repeating: "|---:|---:", count: Self.townSeeds.count) + "|---|\n"
        for row in rows { text += "| \(row.name) | " + row.cells.joined(separator: " | ") + " | \(row.target) |\n" }
        func ratios(_ a: [Outcome], _ b: [Outcome]) -> String {
            zip(a, b).map { String(format: "%.2f×", $0.perHundred / max($1.perHundred, 1e-9)) }.joined(separator: ", ")
        }
        text +=
            "\nAgainst the ceiling, seeds " + Self.townSeeds.map(String.init).joined(separator: ", ")
            + ": swipe's feed " + ratios(feeds, ceilings) + "; the learned ceiling " + ratios(learneds, ceilings)
            + "; swipe's feed against the learned ceiling " + ratios(feeds, learneds) + ".\n"
        return text
    }

    /// The feed's model with `signal` switched: off when the feed uses it,
    /// else added back (shared interests at the 0.1 set by hand before).
    static func toggled(_ signal: Ranking.Signal) -> Ranking.Model {
        var model = Ranking.Model.standard
        if model.uses(signal) { return model.without(signal) }
        model.off.remove(signal)
        if signal == .sharedInterests { model.sharedWeight = 0.1 }
        if signal == .coLiked || signal == .likesYourType, model.collaborativeWeight == 0 {
            model.collaborativeWeight = 0.5
        }
        return model
    }

    /// How often the town refits the ranking's model, in its own time: as
    /// `swipe serve` does, every `Ranking.refitSeconds` (10 minutes: every
    /// 5 sessions, 240 refits a run). Measured at 2 hours too (a run on
    /// d315b6d): the fit then lost 0.06–0.22 matches per 100 swipes on each
    /// seed, where at 10 minutes it gains on two of three.
    static let townRefitSeconds: TimeInterval = Ranking.refitSeconds

    /// The day's sessions: every user once, in an order shuffled per day.
    func sessions(_ town: Town, day: Int) -> [Int] {
        var random = SplitMix64(seed: town.seed &+ 100 &+ UInt64(day))
        return town.active.shuffled(using: &random)
    }

    static let start = Timestamp.date(from: "2026-11-01T08:00:00.000Z")!

    func sessionStart(day: Int, turn: Int) -> Date {
        Self.start.addingTimeInterval(Double(day) * 86_400 + Double(turn) * 120)
    }

    func townThroughTheFeed(_ town: Town, model: Ranking.Model) throws -> Outcome {
        let store = try freshStore("ranking-town.sqlite")
        let csv = directory + "/ranking-town.csv"
        try town.csv.write(toFile: csv, atomically: true, encoding: .utf8)
        _ = try store.importProfiles(path: csv, options: ImportOptions())
        let index = Dictionary(uniqueKeysWithValues: town.ids.enumerated().map { ($1, $0) })
        var outcome = Outcome()
        // The fit, refitted every `townRefitSeconds` of the town's time.
        var fittedAt: Date?
        for day in 0..<Town.days {
            for (turn, viewer) in sessions(town, day: day).enumerated() {
                var now = sessionStart(day: day, turn: turn)
                if model.uses(.appeal), fittedAt.map({ now.timeIntervalSince($0) >= Self.townRefitSeconds }) ?? true {
                    try store.refitRanking(ridge: model.fitRidge, at: now)
                    fittedAt = now
                }
                let feed = try SQLiteFeed(
                    store: store, viewer: town.ids[viewer], options: .init(clock: { now }, model: model))
                for _ in 0..<Town.cardsPerDay {
                    guard let card = try feed.nextProfiles(limit: 1, excluding: []).first else { break }
                    let candidate = index[card.id]!
                    outcome.impressions[candidate, default: 0] += 1
                    let decision: Decision = town.likes(viewer, candidate) ? .like : .hate
                    let recorded = try store.record(
                        viewer: town.ids[viewer], profile: card.id,
                        decision: decision, via: .button, at: now)
                    outcome.swipes += 1
                    if recorded.match != nil { outcome.matches += 1 }
                    now.addTimeInterval(5)
                }
            }
        }
        return outcome
    }

    enum Order { case key, random, activeFirst, ceiling, learned }

    /// The same town, days and taste, dealt in memory. Key, random and
    /// active first: likers first (oldest like first), then key order or a
    /// random order fixed per viewer; active first takes, from that random
    /// order, those who have made a decision before those who have not. The
    /// ceiling knows the taste: it deals by the true chance of a mutual like
    /// (P(V likes C) × P(C likes V), 1 for a standing like of V, 0 for someone
    /// who never uses the app), under the feed's exposure bound (dealt more
    /// than the active candidates' mean in 24 hours plus the feed's grace,
    /// `Model.exposureGrace`: the score times (share/dealt)²). The learned
    /// ceiling deals the same way by what the ledger so far tells
    /// (`boundedNext`): the taste's own form, learned, over every candidate.
    func simulate(_ town: Town, order: Order) -> Outcome {
        var outcome = Outcome()
        var decided: [Int: [Int: Bool]] = [:]  // viewer → candidate → liked
        var likers: [Int: [Int]] = [:]  // profile → likers, oldest first
        var matched: Set<Pair> = []
        var swiped: Set<Int> = []
        var dealtAt: [Int: [Date]] = [:]
        let users = Set(town.active)
        let everyone = Array(0..<Town.size)
        var orderOf: [Int: [Int]] = [:]
        // The learned ceiling's ledger and its fit, refitted as the feed's is.
        var edges: [Ranking.Edge] = []
        var fit = Ranking.Fit(), fittedAt: Date?
        for day in 0..<Town.days {
            for (turn, viewer) in sessions(town, day: day).enumerated() {
                var now = sessionStart(day: day, turn: turn)
                if order == .learned, fittedAt.map({ now.timeIntervalSince($0) >= Self.townRefitSeconds }) ?? true {
                    // Newest first, as the store's refit reads the ledger.
                    fit = Ranking.fit(edges.reversed(), ridge: Ranking.fitRidge)
                    fittedAt = now
                }
                let wanted = town.gender[viewer] == "female" ? "male" : "female"
                func eligible(_ c: Int) -> Bool {
                    c != viewer && town.gender[c] == wanted && decided[viewer]?[c] == nil
                }
                for _ in 0..<Town.cardsPerDay {
                    var next: Int?
                    if order == .ceiling {
                        next = boundedNext(
                            viewer: viewer, now: now, eligible: eligible, likers: likers, users: users,
                            dealtAt: dealtAt, chance: town.chance(_:likes:))
                    } else if order == .learned {
                        next = boundedNext(
                            viewer: viewer, now: now, eligible: eligible, likers: likers, users: swiped,
                            dealtAt: dealtAt
                        ) { v, c in
                            1 / (1 + exp(-(fit.mean + (fit.generosity[v] ?? 0) + (fit.appeal[c] ?? 0))))
                        }
                    } else {
                        next = likers[viewer, default: []].first(where: eligible)
                    }
                    if next == nil, order != .ceiling, order != .learned {
                        let sequence =
                            orderOf[viewer]
                            ?? {
                                var random = SplitMix64(seed: town.seed &+ 7 &+ UInt64(viewer))
                                let sequence = order == .key ? everyone : everyone.shuffled(using: &random)
                                orderOf[viewer] = sequence
                                return sequence
                            }()
                        if order == .activeFirst { next = sequence.first { eligible($0) && swiped.contains($0) } }
                        next = next ?? sequence.first(where: eligible)
                    }
                    guard let candidate = next else { break }
                    outcome.impressions[candidate, default: 0] += 1
                    dealtAt[candidate, default: []].append(now)
                    outcome.swipes += 1
                    let liked = town.likes(viewer, candidate)
                    edges.append(Ranking.Edge(viewer: viewer, profile: candidate, liked: liked))
                    decided[viewer, default: [:]][candidate] = liked
                    swiped.insert(viewer)
                    if liked {
                        likers[candidate, default: []].append(viewer)
                        if decided[candidate]?[viewer] == true,
                            matched.insert(Pair("\(min(viewer, candidate))", "\(max(viewer, candidate))")).inserted
                        {
                            outcome.matches += 1
                        }
                    }
                    now.addTimeInterval(5)
                }
            }
        }
        return outcome
    }

    /// The next card of the ceiling and of the learned ceiling for `viewer`
    /// (`simulate`): the eligible candidate of the highest chance of a mutual
    /// like, ties by index, under the feed's exposure bound. `chance(V, C)`
    /// is the chance that V likes C; C's chance of liking V is 1 for a
    /// standing like, `chance(C, V)` for one of `users`, else 0.
    ///
    /// The ceiling knows the hidden taste (`Town.chance`) and who uses the
    /// app. The learned ceiling knows what a ranker can: the taste's own form
    /// (a threshold on appeal minus pickiness) learned by the store's fit
    /// from the decisions so far, σ(mean + generosity(V) + appeal(C)), and as
    /// users those who have swiped. Both score every eligible candidate, not
    /// a window; what the learned one reaches against the ceiling bounds
    /// what any ranker learning from the ledger alone can reach in this town.
    func boundedNext(
        viewer: Int, now: Date, eligible: (Int) -> Bool, likers: [Int: [Int]], users: Set<Int>,
        dealtAt: [Int: [Date]], chance: (Int, Int) -> Double
    ) -> Int? {
        let candidates = (0..<Town.size).filter(eligible)
        let likedMe = Set(likers[viewer] ?? [])
        func recent(_ c: Int) -> Double {
            Double((dealtAt[c] ?? []).filter { now.timeIntervalSince($0) < 86_400 }.count)
        }
        let active = candidates.filter { users.contains($0) }
        let fair =
            (active.isEmpty ? 0 : active.map(recent).reduce(0, +) / Double(active.count))
            + Ranking.Model.standard.exposureGrace
        var best: Int?, bestScore = -1.0
        for c in candidates {
            let theyLike = likedMe.contains(c) ? 1 : users.contains(c) ? chance(c, viewer) : 0
            var score = chance(viewer, c) * theyLike
            let dealt = recent(c)
            if users.contains(c), dealt > fair { score *= (fair / dealt) * (fair / dealt) }
            if score > bestScore {
                best = c
                bestScore = score
            }
        }
        return best
    }

    /// The Gini coefficient of `values` (0: all equal; near 1: all on one).
    static func gini(_ values: [Int]) -> Double {
        let sorted = values.sorted().map(Double.init)
        let total = sorted.reduce(0, +)
        guard total > 0 else { return 0 }
        let n = Double(sorted.count)
        let weighted = sorted.enumerated().reduce(0.0) { $0 + Double($1.offset + 1) * $1.element }
        return (2 * weighted) / (n * total) - (n + 1) / n
    }
}

struct Pair: Hashable {
    var a: String
    var b: String
    init(_ a: String, _ b: String) {
        self.a = a
        self.b = b
    }
}

/// A small CSV file's data rows (no quoting needed: the speed-dating files have none in these columns), header skipped.
func CSVLines(path: String) throws -> [[String]] {
    // By isNewline: the files end their lines with CRLF, one Character.
    try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
}
