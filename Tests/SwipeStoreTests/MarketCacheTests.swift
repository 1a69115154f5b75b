import Foundation
import SwipeStore
import Testing

/// A server's decks share one market sample, read again once it is
/// `maxAge` seconds old; worked by counting the reads.
@Suite struct MarketCacheTests {
    /// A clock the test moves by hand.
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
    }

    static func rows(_ keys: [Int]) -> [Ranking.Market.Row] {
        keys.map { Ranking.Market.Row(key: $0, gender: "f", stats: Discovery.RankStats()) }
    }

    @Test func aFreshSampleIsNotReadAgain() {
        let clock = Clock()
        let cache = Ranking.MarketCache(maxAge: 10) { clock.now }
        var reads = 0
        let first = cache.market(size: 3) {
            reads += 1
            return Self.rows([3, 1, 2])
        }
        clock.now += 9.999
        let second = cache.market(size: 3) {
            reads += 1
            return Self.rows([7])
        }
        #expect(reads == 1)
        #expect(first.rows.map(\.key) == [1, 2, 3])
        #expect(second.rows.map(\.key) == [1, 2, 3])
    }

    @Test func aSampleTenSecondsOldIsReadAgain() {
        let clock = Clock()
        let cache = Ranking.MarketCache(maxAge: 10) { clock.now }
        var reads = 0
        _ = cache.market(size: 3) {
            reads += 1
            return Self.rows([1])
        }
        clock.now += 10
        let later = cache.market(size: 3) {
            reads += 1
            return Self.rows([7, 8])
        }
        #expect(reads == 2)
        #expect(later.rows.map(\.key) == [7, 8])
    }

    @Test func aFailedReadKeepsNothing() {
        struct Down: Error {}
        let clock = Clock()
        let cache = Ranking.MarketCache(maxAge: 10) { clock.now }
        #expect(throws: Down.self) { try cache.market(size: 3) { throw Down() } }
        var reads = 0
        let market = cache.market(size: 3) {
            reads += 1
            return Self.rows([4])
        }
        #expect(reads == 1)
        #expect(market.rows.map(\.key) == [4])
    }

    @Test func aSampleOfAnotherSizeIsReadAgain() {
        let clock = Clock()
        let cache = Ranking.MarketCache(maxAge: 10) { clock.now }
        var reads = 0
        _ = cache.market(size: 3) {
            reads += 1
            return Self.rows([1, 2, 3])
        }
        let smaller = cache.market(size: 2) {
            reads += 1
            return Self.rows([5, 6])
        }
        #expect(reads == 2)
        #expect(smaller.rows.map(\.key) == [5, 6])
    }
}
