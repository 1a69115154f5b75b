import Foundation
import SwipeStore
import Testing

/// A server's decks share one market sample, read again once it is
/// `maxAge` seconds old or when a model asks for another size; worked by
/// counting the reads.
@Suite struct MarketCacheTests {
    /// A cache over a clock the test moves by hand, counting its reads.
    final class Probe: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        var reads = 0
        lazy var cache = Ranking.MarketCache(maxAge: 10) { [unowned self] in now }

        /// The keys of the market the cache gives for `size`, had the store held `keys`.
        func market(size: Int = 3, store keys: [Int]) -> [Int] {
            cache.market(size: size) {
                reads += 1
                return keys.map { Ranking.Market.Row(key: $0, gender: "f", stats: Discovery.RankStats()) }
            }.rows.map(\.key)
        }
    }

    @Test func aFreshSampleIsNotReadAgain() {
        let probe = Probe()
        #expect(probe.market(store: [3, 1, 2]) == [1, 2, 3])
        probe.now += 9.999
        #expect(probe.market(store: [7]) == [1, 2, 3])
        #expect(probe.reads == 1)
    }

    @Test func aSampleTenSecondsOldIsReadAgain() {
        let probe = Probe()
        #expect(probe.market(store: [1]) == [1])
        probe.now += 10
        #expect(probe.market(store: [8, 7]) == [7, 8])
        #expect(probe.reads == 2)
    }

    @Test func aSampleOfAnotherSizeIsReadAgain() {
        let probe = Probe()
        #expect(probe.market(size: 3, store: [1, 2, 3]) == [1, 2, 3])
        #expect(probe.market(size: 2, store: [5, 6]) == [5, 6])
        #expect(probe.reads == 2)
    }

    @Test func aFailedReadKeepsNothing() {
        struct Down: Error {}
        let probe = Probe()
        #expect(throws: Down.self) { try probe.cache.market(size: 3) { throw Down() } }
        #expect(probe.market(store: [4]) == [4])
        #expect(probe.reads == 1)
    }
}
