import Foundation
import SwipeCore
import Testing

@testable import SwipeStore

/// The ranking's fit (`Ranking.fit`, README "Ranking"): a ridge-penalised
/// logistic (Rasch) fit, like(V, C) = σ(mean + generosity(V) + appeal(C)),
/// against an oracle that shares none of its code: plain gradient ascent on
/// the same penalised log-likelihood, run to convergence here.
@Suite struct RankingFitTests {
    /// The penalised log-likelihood's maximum by gradient ascent with a small
    /// fixed step, from zero, until the gradient vanishes.
    static func oracle(_ edges: [Ranking.Edge], ridge: Double) -> (
        mean: Double, appeal: [Int: Double], generosity: [Int: Double]
    ) {
        var mean = 0.0, appeal: [Int: Double] = [:], generosity: [Int: Double] = [:]
        for edge in edges {
            appeal[edge.profile] = 0
            generosity[edge.viewer] = 0
        }
        for _ in 0..<200_000 {
            var dMean = 0.0, dAppeal = appeal.mapValues { -ridge * $0 },
                dGenerosity = generosity.mapValues { -ridge * $0 }
            for edge in edges {
                let p = 1 / (1 + exp(-(mean + generosity[edge.viewer]! + appeal[edge.profile]!)))
                let residual = (edge.liked ? 1 : 0) - p
                dMean += residual
                dAppeal[edge.profile]! += residual
                dGenerosity[edge.viewer]! += residual
            }
            let largest = max(abs(dMean), dAppeal.values.map(abs).max()!, dGenerosity.values.map(abs).max()!)
            if largest < 1e-11 { break }
            mean += 0.05 * dMean
            for (key, value) in dAppeal { appeal[key]! += 0.05 * value }
            for (key, value) in dGenerosity { generosity[key]! += 0.05 * value }
        }
        return (mean, appeal, generosity)
    }

    /// Four viewers, five candidates, one picky viewer and one candidate
    /// everyone likes: the fit and the oracle agree to 1e-6 for three
    /// penalties.
    @Test(arguments: [0.5, 1.0, 4.0])
    func agreesWithGradientAscent(ridge: Double) {
        let likes: [(Int, Int, Bool)] = [
            (1, 10, true), (1, 11, true), (1, 12, false), (1, 13, true), (1, 14, false),
            (2, 10, true), (2, 11, false), (2, 12, false), (2, 13, false),
            (3, 10, true), (3, 12, true), (3, 13, true), (3, 14, true),
            (4, 10, true), (4, 11, false), (4, 14, false),
        ]
        let edges = likes.map { Ranking.Edge(viewer: $0.0, profile: $0.1, liked: $0.2) }
        let fit = Ranking.fit(edges, ridge: ridge)
        let oracle = Self.oracle(edges, ridge: ridge)
        #expect(abs(fit.mean - oracle.mean) < 1e-6)
        #expect(fit.appeal.keys.sorted() == [10, 11, 12, 13, 14])
        #expect(fit.generosity.keys.sorted() == [1, 2, 3, 4])
        for (key, value) in oracle.appeal { #expect(abs(fit.appeal[key]! - value) < 1e-6, "appeal of \(key)") }
        for (key, value) in oracle.generosity {
            #expect(abs(fit.generosity[key]! - value) < 1e-6, "generosity of \(key)")
        }
        // Who everyone likes is the most appealing; who likes least, the least generous.
        #expect(fit.appeal[10]! == fit.appeal.values.max())
        #expect(fit.generosity[2]! == fit.generosity.values.min())
        #expect(fit.decisions == edges.count)
    }

    /// Symmetric by hand: two viewers who each like one of two candidates
    /// and pass the other, crosswise. Every like is matched by a pass of the
    /// same people, so the maximum is at zero: mean, appeals and
    /// generosities all 0 (σ(0) = ½, the observed rate of every row and column).
    @Test func symmetricLedgerFitsZero() {
        let edges = [
            Ranking.Edge(viewer: 1, profile: 3, liked: true), Ranking.Edge(viewer: 1, profile: 4, liked: false),
            Ranking.Edge(viewer: 2, profile: 3, liked: false), Ranking.Edge(viewer: 2, profile: 4, liked: true),
        ]
        let fit = Ranking.fit(edges, ridge: 1)
        #expect(abs(fit.mean) < 1e-12)
        for value in Array(fit.appeal.values) + Array(fit.generosity.values) { #expect(abs(value) < 1e-12) }
    }

    /// One viewer who liked everyone: without the ridge their generosity
    /// would be infinite; with it, finite and the largest.
    @Test func allLikesStayFinite() {
        let edges =
            (10..<15).map { Ranking.Edge(viewer: 1, profile: $0, liked: true) } + [
                Ranking.Edge(viewer: 2, profile: 10, liked: false), Ranking.Edge(viewer: 2, profile: 11, liked: true),
            ]
        let fit = Ranking.fit(edges, ridge: 0.5)
        #expect(fit.generosity[1]!.isFinite && fit.generosity[1]! > fit.generosity[2]!)
        let oracle = Self.oracle(edges, ridge: 0.5)
        #expect(abs(fit.generosity[1]! - oracle.generosity[1]!) < 1e-6)
    }

    /// Likes alone have no finite maximum (the mean would run to +∞): the
    /// mean stops at log 99, so the liked still rank above the unseen.
    @Test func likesAloneKeepTheMeanBounded() {
        let edges = [
            Ranking.Edge(viewer: 2, profile: 1, liked: true), Ranking.Edge(viewer: 2, profile: 3, liked: true),
        ]
        let fit = Ranking.fit(edges, ridge: 1)
        #expect(abs(fit.mean - log(99.0)) < 1e-12)
        #expect(fit.appeal[3]! > 0)
        #expect(Ranking.sigmoid(fit.mean + fit.appeal[3]!) > Ranking.sigmoid(fit.mean))
    }

    /// No decisions: nothing fitted.
    @Test func emptyLedger() {
        #expect(Ranking.fit([], ridge: 1) == Ranking.Fit())
    }

    /// The feed's score with the fit stored: σ(mean + generosity(V) +
    /// appeal(C)) each way, joined as the model says; the like rates do not
    /// count then. Without a stored fit (no mean) the rates rank.
    @Test func scoresUseTheFitInPlaceOfTheRates() {
        let viewer = Profile(id: "v", name: "V", age: 30, gender: "female")
        func candidate(_ id: String, _ key: Int, appeal: Double?, generosity: Double?) -> Discovery.RankCandidate {
            Discovery.RankCandidate(
                key: key, profile: Profile(id: id, name: id, age: 30, gender: "male"),
                // The rates say the opposite of the fit: a fit that is read wins.
                stats: Discovery.RankStats(
                    given: 10, givenLikes: appeal == nil ? 9 : 1, received: 10, receivedLikes: appeal == nil ? 9 : 1,
                    lastActiveAt: "2026-11-01T00:00:00.000Z", appeal: appeal, generosity: generosity))
        }
        let candidates = [
            candidate("a", 1, appeal: 1, generosity: 0.5), candidate("b", 2, appeal: nil, generosity: nil),
        ]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var model = Ranking.Model.standard
        model.off.remove(.appeal)
        model.off.insert(.exposure)
        let stats = Discovery.RankStats(appeal: 0.2, generosity: -0.3, fitMean: -1)
        let scores = Ranking.scores(viewer: viewer, viewerStats: stats, candidates: candidates, now: now, model: model)
        let iLike = 1 / (1 + exp(-(-1 - 0.3 + 1))), theyLike = 1 / (1 + exp(-(-1 + 0.5 + 0.2)))
        #expect(abs(scores[0] - 2 * iLike * theyLike / (iLike + theyLike)) < 1e-12)
        let iLikeB = 1 / (1 + exp(-(-1 - 0.3))), theyLikeB = 1 / (1 + exp(-(-1 + 0.2)))
        #expect(abs(scores[1] - 2 * iLikeB * theyLikeB / (iLikeB + theyLikeB)) < 1e-12)
        // Never fitted: the rates rank, and b (liked 9 of 10) comes first.
        let unfitted = Ranking.scores(
            viewer: viewer, viewerStats: Discovery.RankStats(), candidates: candidates, now: now, model: model)
        #expect(unfitted[1] > unfitted[0])
        // The signal off: the rates too.
        let off = Ranking.scores(
            viewer: viewer, viewerStats: stats, candidates: candidates, now: now, model: model.without(.appeal))
        #expect(off == unfitted)
    }
}
