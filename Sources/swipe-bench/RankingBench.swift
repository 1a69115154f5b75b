import Foundation
import SwipeCore
@_spi(Benchmarks) import SwipeSQLite
import SwipeStore

/// `make bench-ranking` (BENCHMARKS.md, the ranking rows): does the
/// feed match people? Two measures, each beside key order and a random order
/// on the same data:
///
/// 1. The speed-dating replay: the first half of each night's real
///    decisions imported as history, then per viewer the first 3 cards dealt
///    among their second-half partners, scored by the second half (the data
///    folder's README): precision@3 of mutual likes.
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

    func run() throws -> [Line] {
        var lines: [Line] = []
        if parts.contains("replay") { lines += try replay() }
        if parts.contains("town") { lines += try town() }
        return lines
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

    func replay() throws -> [Line] {
        let store = try freshStore("ranking-speed-dating.sqlite")
        _ = try store.importProfiles(path: speedDating + "/profiles.csv", options: ImportOptions())
        _ = try store.importDecisions(path: speedDating + "/history.csv", options: ImportOptions())
        let future = try CSVLines(path: speedDating + "/future.csv")
        var likes: [Pair: Bool] = [:]
        for row in future { likes[Pair(row[0], row[1])] = row[2] != "hate" }
        var partners: [String: Set<String>] = [:]
        for pair in likes.keys where likes[Pair(pair.b, pair.a)] != nil { partners[pair.a, default: []].insert(pair.b) }
        let history = try CSVLines(path: speedDating + "/history.csv")
        let end = history.compactMap { Timestamp.date(from: $0[3]) }.max() ?? Date()
        let ids = try CSVLines(path: speedDating + "/profiles.csv").map { $0[0] }
        let keyOf = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        func mutual(_ v: String, _ c: String) -> Bool { likes[Pair(v, c)] == true && likes[Pair(c, v)] == true }

        var feedHits = 0, keyHits = 0, cards = 0
        var randomHits = 0, randomCards = 0
        for viewer in ids {
            guard let mine = partners[viewer], !mine.isEmpty else { continue }
            let wanted = min(3, mine.count)
            // swipe's feed, as a deck that keeps every card it was dealt: it only looks (no writes).
            let feed = try SQLiteFeed(store: store, viewer: viewer, options: .init(records: false, clock: { end }))
            var dealt: Set<String> = [], firstThree: [String] = []
            while firstThree.count < wanted, let next = try feed.nextProfiles(limit: 1, excluding: dealt).first {
                dealt.insert(next.id)
                if mine.contains(next.id) { firstThree.append(next.id) }
            }
            feedHits += firstThree.filter { mutual(viewer, $0) }.count
            keyHits += mine.sorted { keyOf[$0]! < keyOf[$1]! }.prefix(wanted).filter { mutual(viewer, $0) }.count
            cards += wanted
            for round in 0..<50 {
                var random = SplitMix64(seed: seed &+ UInt64(round) &* 7919 &+ UInt64(keyOf[viewer]!))
                randomHits += mine.sorted().shuffled(using: &random).prefix(wanted).filter { mutual(viewer, $0) }.count
                randomCards += wanted
            }
        }
        let measure = "speed dating: precision@3 of mutual likes (\(cards) cards)"
        return [
            Line(measure: measure, order: "swipe's feed", value: Double(feedHits) / Double(cards), target: "≥ 0.27"),
            Line(measure: measure, order: "key order", value: Double(keyHits) / Double(cards), target: ""),
            Line(
                measure: measure, order: "random (mean of 50)", value: Double(randomHits) / Double(randomCards),
                target: "about 0.19"),
        ]
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
    }

    func town() throws -> [Line] {
        let town = Town(seed: seed)
        let feed = try townThroughTheFeed(town)
        let key = simulate(town, order: .key)
        let random = simulate(town, order: .random)
        func lines(_ name: String, _ o: Outcome, matchTarget: String, giniTarget: String) -> [Line] {
            [
                Line(
                    measure: "town: matches per 100 swipes", order: name,
                    value: 100 * Double(o.matches) / Double(max(1, o.swipes)),
                    target: matchTarget),
                Line(
                    measure: "town: exposure Gini among the 300", order: name,
                    value: Self.gini(town.active.map { o.impressions[$0] ?? 0 }), target: giniTarget),
            ]
        }
        let randomRate = 100 * Double(random.matches) / Double(max(1, random.swipes))
        return lines(
            "swipe's feed", feed,
            matchTarget: String(format: "≥ %.2f (2.5× likers-first-then-random)", 2.5 * randomRate),
            giniTarget: "≤ 0.40")
            + lines("key order", key, matchTarget: "", giniTarget: "")
            + lines("likers first, then random", random, matchTarget: "", giniTarget: "")
    }

    /// The day's sessions: every user once, in an order shuffled per day.
    func sessions(_ town: Town, day: Int) -> [Int] {
        var random = SplitMix64(seed: town.seed &+ 100 &+ UInt64(day))
        return town.active.shuffled(using: &random)
    }

    static let start = Timestamp.date(from: "2026-11-01T08:00:00.000Z")!

    func sessionStart(day: Int, turn: Int) -> Date {
        Self.start.addingTimeInterval(Double(day) * 86_400 + Double(turn) * 120)
    }

    func townThroughTheFeed(_ town: Town) throws -> Outcome {
        let store = try freshStore("ranking-town.sqlite")
        let csv = directory + "/ranking-town.csv"
        try town.csv.write(toFile: csv, atomically: true, encoding: .utf8)
        _ = try store.importProfiles(path: csv, options: ImportOptions())
        let index = Dictionary(uniqueKeysWithValues: town.ids.enumerated().map { ($1, $0) })
        var outcome = Outcome()
        for day in 0..<Town.days {
            for (turn, viewer) in sessions(town, day: day).enumerated() {
                var now = sessionStart(day: day, turn: turn)
                let feed = try SQLiteFeed(store: store, viewer: town.ids[viewer], options: .init(clock: { now }))
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

    enum Order { case key, random }

    /// The same town, days and taste, dealt in memory: likers first (oldest
    /// like first), then key order or a random order fixed per viewer.
    func simulate(_ town: Town, order: Order) -> Outcome {
        var outcome = Outcome()
        var decided: [Int: [Int: Bool]] = [:]  // viewer → candidate → liked
        var likers: [Int: [Int]] = [:]  // profile → likers, oldest first
        var matched: Set<Pair> = []
        let everyone = Array(0..<Town.size)
        var orderOf: [Int: [Int]] = [:]
        for day in 0..<Town.days {
            for viewer in sessions(town, day: day) {
                let wanted = town.gender[viewer] == "female" ? "male" : "female"
                func eligible(_ c: Int) -> Bool {
                    c != viewer && town.gender[c] == wanted && decided[viewer]?[c] == nil
                }
                for _ in 0..<Town.cardsPerDay {
                    var next = likers[viewer, default: []].first(where: eligible)
                    if next == nil {
                        let sequence =
                            orderOf[viewer]
                            ?? {
                                var random = SplitMix64(seed: town.seed &+ 7 &+ UInt64(viewer))
                                let sequence = order == .key ? everyone : everyone.shuffled(using: &random)
                                orderOf[viewer] = sequence
                                return sequence
                            }()
                        next = sequence.first(where: eligible)
                    }
                    guard let candidate = next else { break }
                    outcome.impressions[candidate, default: 0] += 1
                    outcome.swipes += 1
                    let liked = town.likes(viewer, candidate)
                    decided[viewer, default: [:]][candidate] = liked
                    if liked {
                        likers[candidate, default: []].append(viewer)
                        if decided[candidate]?[viewer] == true,
                            matched.insert(Pair("\(min(viewer, candidate))", "\(max(viewer, candidate))")).inserted
                        {
                            outcome.matches += 1
                        }
                    }
                }
            }
        }
        return outcome
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
