import Foundation

extension Ranking {
    /// The market sample of `Prior.market`, shared by the feeds of one
    /// server process and read again once it is `maxAge` seconds old.
    ///
    /// The prior is fitted to the 1,000 most recently active people, so one
    /// more decision moves it by a thousandth at most; a server that ranked
    /// 200 decks at once would otherwise read the same thousand rows for each
    /// refill (about a sixth of its saturated throughput in `make bench-serve`).
    /// A deck of the REPL, a test or a replay has no cache and reads the
    /// sample at each ranking, so the card sequence of the model test stays
    /// exact.
    public final class MarketCache: @unchecked Sendable {
        /// How old a sample may be, in seconds of `clock`, before it is read again.
        public let maxAge: TimeInterval
        private let clock: @Sendable () -> Date
        private let lock = NSLock()
        private var cached: (size: Int, market: Market, readAt: Date)?

        /// - Parameters:
        ///   - maxAge: Seconds a sample is dealt from before the next ranking reads it again.
        ///   - clock: What time it is (tests move it).
        public init(maxAge: TimeInterval = 10, clock: @escaping @Sendable () -> Date = Date.init) {
            self.maxAge = maxAge
            self.clock = clock
        }

        /// The cached market of `size` people while it is fresh, else the
        /// one `read` gives (kept for the next `maxAge` seconds). Two
        /// rankings that miss at once both read; the later keeps its sample.
        /// A sample of another size (a model that asks for one) is read again.
        /// - Parameters:
        ///   - size: How many people the sample holds (`Model.marketSample`).
        ///   - read: Reads the sample from the store.
        public func market(size: Int, read: () throws -> [Market.Row]) rethrows -> Market {
            let now = clock()
            let fresh = lock.withLock {
                cached.flatMap { $0.size == size && now.timeIntervalSince($0.readAt) < maxAge ? $0.market : nil }
            }
            if let fresh { return fresh }
            let market = Market(try read())
            lock.withLock { cached = (size, market, now) }
            return market
        }
    }
}
