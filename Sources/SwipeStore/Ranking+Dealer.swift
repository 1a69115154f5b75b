import Foundation
import SwipeCore

extension Ranking {
    /// How a feed reads and deals: the tests and the benchmarks change these,
    /// a deck's feed keeps the defaults.
    public struct FeedOptions {
        /// Boxes covering at most this many cells are walked by cell (nil:
        /// 64); tests and the benchmark's scan set 0 to force the walk by key.
        public var cellLimit: Int?
        /// The ranking's window: eligible profiles in key order from the
        /// cursor, and the most recently active profiles looked at.
        public var window: Int
        public var recentWindow: Int
        /// Whether fetches write (activity, impressions): off for a replay that only looks.
        public var records: Bool
        /// What time it is (tests fix it).
        public var clock: () -> Date
        /// The batch and the impressions not counted yet: the feed's own, or
        /// one a server keeps across fetches (`FeedMemory`).
        public var memory: FeedMemory
        /// What the score is made of (`Model.standard`; the benchmark's cross-validation tries others).
        public var model: Model

        public init(
            cellLimit: Int? = nil, window: Int = Ranking.window, recentWindow: Int = Ranking.recentWindow,
            records: Bool = true, clock: @escaping () -> Date = Date.init, memory: FeedMemory = FeedMemory(),
            model: Model = .standard
        ) {
            self.cellLimit = cellLimit
            self.window = window
            self.recentWindow = recentWindow
            self.records = records
            self.clock = clock
            self.memory = memory
            self.model = model
        }
    }

    /// What both backends' feeds do around their SQL, written once: the
    /// viewer stamped active once per feed, the batch dealt from and
    /// refilled (`Batch`, README "Ranking"), and the impressions noted and
    /// handed to the backend's count statement in bulk. (`why` does not ask
    /// the feed: it works its reasons out from the store, `reasons(about:)`,
    /// for whichever process dealt the card.) A feed owns one and asks it what to deal;
    /// the backend supplies only the reads and writes (the likers, the
    /// window, a card's check by key, the count).
    public final class FeedDealer {
        public let options: FeedOptions
        /// How many fetches read and ranked a window (the benchmark splits the next card by it).
        public private(set) var refills = 0

        public init(options: FeedOptions) { self.options = options }

        private var memory: FeedMemory { options.memory }

        /// What time it is for this feed.
        public func now() -> Date { options.clock() }

        /// Runs `write` (the viewer stamped active) the first time a
        /// recording feed over this memory fetches (once per deck, however
        /// many feeds a server makes for it); a replay that only looks never does.
        public func stampOnce(_ write: () throws -> Void) rethrows {
            guard options.records, !memory.stamped else { return }
            try write()
            memory.stamped = true
        }

        /// The viewer's internal key, once a fetch of this feed or of
        /// another over the same memory read it (nil before).
        public var viewerKey: Int? {
            get { memory.viewerKey }
            set { memory.viewerKey = newValue }
        }

        /// Whether the feed counts the impressions left when it goes away
        /// (not when the memory's owner does, `FeedMemory.countedByOwner`).
        public var countsOnClose: Bool { !memory.countedByOwner }

        /// The next `need` cards of the batch when all of them can be dealt
        /// from it and the fetch writes nothing else (the viewer already
        /// stamped active): the way a server deals a card without its
        /// writer (`SwipeDiscovery.dealWithoutWriting`). Nil, with the batch
        /// as it was, when the batch does not hold for `viewer` or runs out
        /// first: then the fetch takes the way that writes.
        public func wholeFromBatch(
            viewer: Profile, need: Int, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)]? {
            guard memory.stamped || !options.records, memory.batch.holds(for: viewer) else { return nil }
            let (taken, looked) = try memory.batch.peek(need: need, skip: skip, check: check)
            guard taken.count == need else { return nil }
            memory.batch.take(looked)
            noteDealt(taken.map(\.candidate.key))
            return taken.map { ($0.candidate.key, $0.profile) }
        }

        /// This fetch dealt `count` likers first: after any, a new like
        /// changes what the ranking knows, so the next card is ranked afresh.
        public func likersDealt(_ count: Int) { if count > 0 { memory.batch.drop() } }

        /// Up to `need` cards from the batch ranked before, when it still
        /// holds for `viewer` as they are now; each `check`ed against the
        /// database by key (nil: no longer eligible, passed over).
        public func fromBatch(
            viewer: Profile, need: Int, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            guard memory.batch.holds(for: viewer) else { return [] }
            return try deal(need: need, skip: skip, check: check)
        }

        /// The card the batch would deal next (its first queued one `skip`
        /// does not name) and the viewer it was ranked for; nil when the
        /// batch is empty. A backend may check that card by key in the same
        /// round trip as it reads the viewer, and use the check for
        /// `fromBatch` when the viewer read is the one ranked for (the check
        /// `fromBatch` would make, bound to the same values).
        public func upNext(skip: (Discovery.RankCandidate) -> Bool) -> (
            viewer: Profile, candidate: Discovery.RankCandidate
        )? {
            guard let viewer = memory.batch.rankedFor, let next = memory.batch.queue.first(where: { !skip($0) })
            else { return nil }
            return (viewer, next)
        }

        /// A fresh ranking of `viewer`'s window becomes the batch, and up to
        /// `need` of its best cards are dealt (`check` as in `fromBatch`),
        /// their impressions noted.
        public func refill(
            _ ranked: [Discovery.RankCandidate], viewer: Profile, need: Int,
            skip: (Discovery.RankCandidate) -> Bool, check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            refills += 1
            memory.batch.fill(ranked, for: viewer)
            let taken = try deal(need: need, skip: skip, check: check)
            noteDealt(taken.map(\.key))
            return taken
        }

        /// Notes the impressions of cards dealt, to be counted in bulk.
        public func noteDealt(_ keys: [Int]) { memory.noteDealt(keys, recording: options.records) }

        /// Whether impressions wait to be counted.
        public var hasUncounted: Bool { !memory.uncounted.isEmpty }

        /// Hands the impressions noted since the last count to `count` (the
        /// backend's one statement) and forgets them once it ran; nothing to
        /// do when there are none. A failed count keeps them for the next.
        public func countImpressions(_ count: (PendingImpressions) throws -> Void) rethrows {
            guard let pending = memory.pendingImpressions(at: now()) else { return }
            try count(pending)
            memory.impressionsCounted()
        }

        private func deal(
            need: Int, skip: (Discovery.RankCandidate) -> Bool, check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            try memory.batch.deal(need: need, skip: skip, check: check).map { ($0.candidate.key, $0.profile) }
        }
    }

    /// The impressions to count, as both backends' count statement binds
    /// them: the keys dealt as a JSON array (a key dealt twice listed
    /// twice), the moment, and the start of the 24-hour window.
    public struct PendingImpressions: Sendable {
        public var keys: String
        public var now: String
        public var windowStart: String
    }
}
