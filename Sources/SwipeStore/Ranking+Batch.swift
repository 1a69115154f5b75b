import Foundation
import SwipeCore

extension Ranking {
    /// The feed's batch (README "Ranking"): a window is ranked once and the
    /// next cards are dealt from that ranking, in its order, until it is used
    /// up; only then is a window read and ranked again. So the next card costs
    /// one lookup by key (is the queued card still eligible?), not a window's
    /// read and sort, and a card's place does not move while the batch lasts.
    ///
    /// The batch is dropped, and the next card ranked afresh, when a liker is
    /// dealt (likers come first and a new like changes what the ranking knows)
    /// or when the viewer's profile changed since the ranking (preferences,
    /// place, age or gender decide who qualifies). It lives in the feed's
    /// memory: every queued card is checked by key against the database before
    /// it is dealt, so a card decided, blocked or erased elsewhere, or no
    /// longer matching either side, is passed over, whichever process did it;
    /// a new feed (a restart, another process) starts with a fresh ranking.
    /// Both backends deal through this one rule.
    public struct Batch: Sendable {
        /// The ranked candidates not dealt or passed over yet, best first.
        public private(set) var queue: [Discovery.RankCandidate] = []
        /// The viewer as they were when the window was ranked.
        public private(set) var rankedFor: Profile?

        public init() {}

        /// Whether there are queued cards to deal to `viewer` as they are now.
        public func holds(for viewer: Profile) -> Bool { !queue.isEmpty && rankedFor == viewer }

        /// Forgets the queue: the next card is ranked afresh.
        public mutating func drop() {
            queue = []
            rankedFor = nil
        }

        /// A fresh ranking of `viewer`'s window, best first, to deal from.
        public mutating func fill(_ ranked: [Discovery.RankCandidate], for viewer: Profile) {
            queue = ranked
            rankedFor = viewer
        }

        /// Up to `need` cards from the front of the queue, in its order.
        /// Each card looked at leaves the queue: one `skip` names (already
        /// in the deck or dealt) is passed over; otherwise `check` returns
        /// the profile as stored now, or nil when it is no longer eligible.
        public mutating func deal(
            need: Int, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(candidate: Discovery.RankCandidate, profile: Profile)] {
            let (dealt, looked) = try peek(need: need, skip: skip, check: check)
            queue.removeFirst(looked)
            return dealt
        }

        /// What `deal` would give, and how many cards of the queue it would
        /// look at (and take out), leaving the queue as it is: `take` then
        /// takes them out (a deal that is all or nothing).
        public func peek(
            need: Int, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> (dealt: [(candidate: Discovery.RankCandidate, profile: Profile)], looked: Int) {
            var dealt: [(candidate: Discovery.RankCandidate, profile: Profile)] = []
            var looked = 0
            while dealt.count < need, looked < queue.count {
                let candidate = queue[looked]
                looked += 1
                if !skip(candidate), let now = try check(candidate) { dealt.append((candidate, now)) }
            }
            return (dealt, looked)
        }

        /// Takes the first `count` cards out of the queue (those `peek` looked at).
        public mutating func take(_ count: Int) { queue.removeFirst(min(count, queue.count)) }
    }
}

extension Ranking {
    /// What a viewer's feed remembers between fetches: the batch being dealt
    /// and the impressions not counted yet. A feed keeps its own; a server,
    /// which makes a feed per fetch on whichever connection it borrows, keeps
    /// one per deck and hands it to each (`SwipeDiscovery.feed(viewer:memory:)`),
    /// so its cards too come from the batch. A deck fetches one at a time,
    /// so one fetch at a time uses it.
    public final class FeedMemory: @unchecked Sendable {
        var batch = Batch()
        /// Keys dealt, once per time dealt, not yet counted in `rank_stats`.
        var uncounted: [Int] = []
        /// Whether a feed over this memory stamped the viewer active: once per deck.
        var stamped = false
        /// The viewer's internal key, once a fetch read it: a backend may
        /// use it to check the batch's next card in the viewer's own read.
        var viewerKey: Int?
        /// Whether the memory's owner counts the impressions when the deck
        /// closes (`SwipeDiscovery.countImpressions(viewer:memory:)`), so the
        /// feeds made over it count them only before a new ranking, not each
        /// time one goes away (a server makes a feed per fetch).
        public let countedByOwner: Bool
        /// The market sample the server's feeds share (`MarketCache`); nil:
        /// each ranking reads its own.
        public let market: MarketCache?

        /// - Parameters:
        ///   - countedByOwner: true for a memory that outlives its feeds (a
        ///     server's deck); false when each feed counts at its close.
        ///   - market: The process's shared market sample, if it keeps one.
        public init(countedByOwner: Bool = false, market: MarketCache? = nil) {
            self.countedByOwner = countedByOwner
            self.market = market
        }

        /// Notes the keys of cards dealt, to be counted in bulk (`pendingImpressions`),
        /// when the feed records impressions (a replay only looks).
        func noteDealt(_ keys: [Int], recording: Bool) {
            if recording { uncounted += keys }
        }

        /// The impressions to count; nil when there are none.
        /// `impressionsCounted()` once the statement ran.
        func pendingImpressions(at now: Date) -> PendingImpressions? {
            guard !uncounted.isEmpty else { return nil }
            return PendingImpressions(
                keys: "[" + uncounted.map(String.init).joined(separator: ",") + "]", now: Timestamp.string(from: now),
                windowStart: Timestamp.string(from: now.addingTimeInterval(-86_400)))
        }

        /// Forgets the impressions `pendingImpressions` gave: they are counted.
        func impressionsCounted() { uncounted = [] }
    }
}
