import Foundation

extension Ranking {
    /// Whether the store keeps the fit fresh on its own (after an import, in
    /// `swipe serve`, beside a REPL that opens on a stale fit): while the shipped model
    /// reads it (`Model.standard`). A model that reads it otherwise (the
    /// benchmark's) refits itself (`refitRanking`).
    public static var keepsFit: Bool { Model.standard.uses(.appeal) }

    /// The fitted model of who likes whom (issue 38; README "Ranking"): a
    /// logistic (Rasch) fit of the ledger's latest standing decisions,
    ///
    ///     P(V likes C) = σ(mean + generosity(V) + appeal(C)),
    ///
    /// ridge-penalised (each appeal and generosity pulled toward 0 by
    /// `ridge`: the log of a normal prior of variance 1/`ridge`; the mean
    /// is free). Written once, here, for both backends: each reads the
    /// decisions in one order (`SQLDatabase.refitRanking`) and stores what
    /// this returns, so both feeds read the same numbers. A profile the fit
    /// has not seen (no decision among those read) has appeal and
    /// generosity 0: the market's typical person.
    public struct Fit: Sendable, Equatable {
        /// The log-odds of a like between two typical people.
        public var mean = 0.0
        /// Per internal key: how much more than typical people like this profile (log-odds).
        public var appeal: [Int: Double] = [:]
        /// Per internal key: how much more readily than typical this profile likes (log-odds).
        public var generosity: [Int: Double] = [:]
        /// The decisions fitted.
        public var decisions = 0

        /// - Parameters:
        ///   - mean: The log-odds of a like between two typical people.
        ///   - appeal: Per internal key, the profile's appeal.
        ///   - generosity: Per internal key, the profile's generosity.
        ///   - decisions: The decisions fitted.
        public init(mean: Double = 0, appeal: [Int: Double] = [:], generosity: [Int: Double] = [:], decisions: Int = 0)
        {
            self.mean = mean
            self.appeal = appeal
            self.generosity = generosity
            self.decisions = decisions
        }

        /// Every profile the fit holds, in key order, with its appeal and
        /// generosity (0 for the side it has no decision on).
        public var rows: [(key: Int, appeal: Double, generosity: Double)] {
            Set(appeal.keys).union(generosity.keys).sorted().map { ($0, appeal[$0] ?? 0, generosity[$0] ?? 0) }
        }
    }

    /// At most this many standing decisions, the latest by the ledger's key,
    /// go into one fit: the bound on a refit's work (one read of this many
    /// rows, `fitSweeps` passes over them, one write of a row per profile
    /// met), whatever the ledger's size. About 0.1 s of arithmetic on one core.
    public static let fitDecisions = 200_000
    /// The ridge penalty of the shipped fit: the default of `Model.fitRidge`,
    /// chosen by `make bench-ranking`'s cross-validation (Documentation/Discovery.md).
    public static let fitRidge = 1.0
    /// Passes of block Newton steps (generosities, appeals, mean) at most;
    /// the fit stops earlier once no parameter moves by more than `fitTolerance`.
    static let fitSweeps = 50
    static let fitTolerance = 1e-7
    /// A Newton step moves a parameter by at most this much (log-odds), so a
    /// profile far from its optimum (all likes, a tiny ridge) cannot overshoot.
    static let fitStep = 2.0
    /// The mean stays within ± this (log 99: a like rate of 1–99%): a ledger
    /// of likes alone (or hates alone) has no finite maximum, and a mean run
    /// off to where σ is 1 for everyone would leave nothing to rank by.
    static let fitMeanBound = log(99.0)

    /// The penalised maximum-likelihood fit of `edges`, summed in the order
    /// given (the same order gives the same numbers, bit for bit). Block
    /// coordinate ascent: each sweep takes one Newton step for every
    /// generosity at once (they are separable given the rest), then every
    /// appeal, then the mean. The objective is concave, so each step climbs.
    /// - Parameters:
    ///   - edges: Standing decisions (`liked`: a like or superlike).
    ///   - ridge: The penalty on each appeal and generosity (> 0).
    public static func fit(_ edges: [Edge], ridge: Double) -> Fit {
        guard !edges.isEmpty else { return Fit() }
        /// Each key's place in its side's parameters, in the order first met.
        struct Places {
            var index: [Int: Int] = [:]
            var keys: [Int] = []
            mutating func place(_ key: Int) -> Int {
                if let i = index[key] { return i }
                index[key] = keys.count
                keys.append(key)
                return keys.count - 1
            }
        }
        var viewers = Places(), profiles = Places()
        let rows = edges.map { (v: viewers.place($0.viewer), c: profiles.place($0.profile), y: $0.liked ? 1.0 : 0) }
        let likes = rows.reduce(0.0) { $0 + $1.y }
        var mean = logit(min(max(likes / Double(rows.count), 0.01), 0.99))
        var generosity = [Double](repeating: 0, count: viewers.keys.count)
        var appeal = [Double](repeating: 0, count: profiles.keys.count)
        var gradient = [Double](), curvature = [Double]()

        /// One Newton step for each parameter of a block (the generosities,
        /// or the appeals); returns the largest move.
        func step(generosities: Bool) -> Double {
            let count = generosities ? generosity.count : appeal.count
            gradient = [Double](repeating: 0, count: count)
            curvature = [Double](repeating: 0, count: count)
            for row in rows {
                let p = sigmoid(mean + generosity[row.v] + appeal[row.c])
                let i = generosities ? row.v : row.c
                gradient[i] += row.y - p
                curvature[i] += p * (1 - p)
            }
            var moved = 0.0
            for i in 0..<count {
                let value = generosities ? generosity[i] : appeal[i]
                let move = min(fitStep, max(-fitStep, (gradient[i] - ridge * value) / (curvature[i] + ridge)))
                if generosities { generosity[i] += move } else { appeal[i] += move }
                moved = max(moved, abs(move))
            }
            return moved
        }

        for _ in 0..<fitSweeps {
            var moved = step(generosities: true)
            moved = max(moved, step(generosities: false))
            var g = 0.0, h = 0.0
            for row in rows {
                let p = sigmoid(mean + generosity[row.v] + appeal[row.c])
                g += row.y - p
                h += p * (1 - p)
            }
            let step = h > 0 ? min(fitStep, max(-fitStep, g / h)) : 0
            let bounded = min(fitMeanBound, max(-fitMeanBound, mean + step))
            moved = max(moved, abs(bounded - mean))
            mean = bounded
            if moved < fitTolerance { break }
        }
        return Fit(
            mean: mean,
            appeal: Dictionary(uniqueKeysWithValues: zip(profiles.keys, appeal)),
            generosity: Dictionary(uniqueKeysWithValues: zip(viewers.keys, generosity)),
            decisions: edges.count)
    }
}
