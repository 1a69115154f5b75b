import Foundation
import SwipeCore
import Testing

@testable import SwipeStore

/// The like rates' prior fitted to the market (README "Ranking", empirical
/// Bayes by the method of moments), on ledgers small enough to work by hand.
@Suite struct RankingPriorTests {
    /// Three women: 2 of 4, 0 of 4 and 4 of 4 likes. Their pooled rate is
    /// 6/12 = 1/2, so m(1 − m) = 1/4 and the squared deviations over it are
    /// 0, 1 and 1: s = 2/3; every rate is over 4 decisions: i = 1/4. Then
    /// ρ = (2/3 − 1/4)/(1 − 1/4) = 5/9 and the weight 1/ρ − 1 = 4/5.
    @Test func oneGroupWorkedByHand() throws {
        let weight = try #require(Ranking.fittedWeight([("f", 2, 4), ("f", 0, 4), ("f", 4, 4)]))
        #expect(abs(weight - 0.8) < 1e-12)
    }

    /// Two men beside them, 1 of 2 each: their own rate 1/2, no deviation,
    /// i grows by 1/2 each. Over the five: s = 2/5, i = (3/4 + 1)/5 = 7/20,
    /// ρ = (2/5 − 7/20)/(13/20) = 1/13, the weight 12. Each deviation is from
    /// its own group's rate: pooled with the women's (also 1/2 here) or not,
    /// the same; a gender of one person with decisions does not count, nor
    /// does anyone without decisions.
    @Test func groupsArePooledAroundTheirOwnRates() throws {
        let rows: [(group: String, likes: Int, count: Int)] = [
            ("f", 2, 4), ("f", 0, 4), ("f", 4, 4), ("m", 1, 2), ("m", 1, 2), ("x", 3, 3), ("f", 0, 0),
        ]
        let weight = try #require(Ranking.fittedWeight(rows))
        #expect(abs(weight - 12) < 1e-9)
        // The order of the rows does not matter beyond rounding.
        let reversed = try #require(Ranking.fittedWeight(Array(rows.reversed())))
        #expect(abs(reversed - 12) < 1e-9)
    }

    /// Rates that spread no more than their decisions' noise: ρ is held at
    /// 0.02, a weight of 49 decisions (never infinite).
    @Test func noSpreadIsTheHeaviestPrior() throws {
        let weight = try #require(Ranking.fittedWeight([("f", 5, 10), ("f", 5, 10), ("f", 5, 10)]))
        #expect(abs(weight - 49) < 1e-9)
    }

    /// Too little to fit: fewer than three people counted, or everyone
    /// decided once (a rate over one decision says nothing of the spread).
    @Test func tooThinToFit() {
        #expect(Ranking.fittedWeight([("f", 1, 3), ("f", 2, 3)]) == nil)
        #expect(Ranking.fittedWeight([("f", 1, 1), ("f", 0, 1), ("f", 1, 1)]) == nil)
        #expect(Ranking.fittedWeight([("f", 0, 3), ("f", 0, 2), ("f", 0, 4)]) == nil, "a pooled rate of 0")
        #expect(Ranking.fittedWeight([]) == nil)
    }

    /// The weight the ranking uses: the fit, or `fallbackWeight` when the
    /// window is too thin (a new town), for the given and received rates apart.
    @Test func basesTakeTheFitOrTheFallback() {
        let liked = Discovery.RankStats(given: 4, givenLikes: 2, received: 4, receivedLikes: 4)
        let cold = Discovery.RankStats(given: 4, givenLikes: 0, received: 4, receivedLikes: 0)
        let half = Discovery.RankStats(given: 4, givenLikes: 4, received: 4, receivedLikes: 2)
        let bases = Ranking.Bases([("f", liked), ("f", cold), ("f", half)], prior: .fitted)
        // Given 2, 0, 4 of 4 and received 4, 0, 2 of 4: both the worked example above.
        #expect(abs(bases.givenWeight - 0.8) < 1e-12)
        #expect(abs(bases.receivedWeight - 0.8) < 1e-12)
        let thin = Ranking.Bases([("f", liked)], prior: .fitted)
        #expect(thin.givenWeight == Ranking.fallbackWeight && thin.receivedWeight == Ranking.fallbackWeight)
        let fixed = Ranking.Bases([("f", liked), ("f", cold), ("f", half)], prior: .fixed(7))
        #expect(fixed.givenWeight == 7 && fixed.receivedWeight == 7)
    }
}

/// `Prior.market`: the prior's fit and the base rates come from the market
/// sample (`Ranking.Market`) instead of the window, worked by hand.
@Suite struct RankingMarketPriorTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// The sample in key order, its genders compared as the window's are.
    @Test func sampleIsInKeyOrderWithGenderKeys() {
        let market = Ranking.Market([
            .init(key: 9, gender: " Female ", stats: Discovery.RankStats()),
            .init(key: 2, gender: "male", stats: Discovery.RankStats()), .init(key: 5, gender: "  ", stats: .init()),
        ])
        #expect(market.rows.map(\.key) == [2, 5, 9])
        #expect(market.rows.map(\.gender) == ["male", nil, "female"])
    }

    /// V (a woman) and C (a man) have decided nothing and no one decided
    /// about them, so every rate is its gender's base rate and the score is
    /// the base rate received of men (C liked by V) times that of women (V
    /// liked by C). In the window those are (0 + 5)/(0 + 10) = 1/2 each:
    /// 1/4. In a market where women received 3 likes of 4 and men 1 of 2:
    /// (3 + 5)/(4 + 10) = 4/7 and (1 + 5)/(2 + 10) = 1/2: 2/7. An empty
    /// sample falls back to the window.
    @Test func marketBaseRatesWorkedByHand() {
        let viewer = Profile(id: "v", name: "V", age: 30, gender: "female")
        let candidate = Discovery.RankCandidate(
            key: 2, profile: Profile(id: "c", name: "C", age: 30, gender: "male"), stats: Discovery.RankStats())
        let market = Ranking.Market([
            .init(key: 10, gender: "female", stats: Discovery.RankStats(received: 4, receivedLikes: 3)),
            .init(key: 11, gender: "male", stats: Discovery.RankStats(received: 2, receivedLikes: 1)),
        ])
        func score(_ prior: Ranking.Prior, _ market: Ranking.Market) -> Double {
            Ranking.scores(
                viewer: viewer, viewerStats: Discovery.RankStats(), candidates: [candidate], now: Self.now,
                model: Ranking.Model(
                    aggregation: .product, prior: prior, sharedWeight: 0, off: Ranking.Model.standard.off),
                market: market)[0]
        }
        #expect(abs(score(.market, market) - 2.0 / 7) < 1e-12)
        #expect(abs(score(.fitted, market) - 0.25) < 1e-12)
        #expect(abs(score(.market, Ranking.Market()) - 0.25) < 1e-12)
    }
}
