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

        public init(
            cellLimit: Int? = nil, window: Int = Ranking.window, recentWindow: Int = Ranking.recentWindow,
            records: Bool = true, clock: @escaping () -> Date = Date.init, memory: FeedMemory = FeedMemory()
        ) {
            self.cellLimit = cellLimit
            self.window = window
            self.recentWindow = recentWindow
            self.records = records
            self.clock = clock
            self.memory = memory
        }
    }

    /// What both backends' feeds do around their SQL, written once: the
    /// viewer stamped active once per feed, the reasons of each card dealt
    /// (`why`), the batch dealt from and refilled (`Batch`, README
    /// "Ranking"), and the impressions noted and handed to the backend's
    /// count statement in bulk. A feed owns one and asks it what to deal;
    /// the backend supplies only the reads and writes (the likers, the
    /// window, a card's check by key, the count).
    public final class FeedDealer {
        public let options: FeedOptions
        /// The reasons of the cards this feed dealt, by id (`why`).
        public private(set) var reasons: [String: [String]] = [:]
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
            viewer: Profile, need: Int, now: Date, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)]? {
            guard memory.stamped || !options.records, memory.batch.holds(for: viewer) else { return nil }
            let (taken, looked) = try memory.batch.peek(need: need, skip: skip, check: check)
            guard taken.count == need else { return nil }
            memory.batch.take(looked)
            noteDealt(taken.map(\.candidate.key))
            return taken.map { candidate, profile in
                reasons[profile.id] = Ranking.reasons(
                    viewer: viewer, candidate: profile, stats: candidate.stats, liker: nil, now: now)
                return (candidate.key, profile)
            }
        }

        /// The likers this fetch dealt, first, with their reasons (`stats`
        /// reads a liker's ranking columns by key). A new like changes what
        /// the ranking knows, so after any the next card is ranked afresh.
        public func likersDealt(
            _ likers: [(profile: Profile, key: Int, kind: Decision)], viewer: Profile, now: Date,
            stats: (Int) throws -> Discovery.RankStats
        ) rethrows {
            for liker in likers {
                reasons[liker.profile.id] = Ranking.reasons(
                    viewer: viewer, candidate: liker.profile, stats: try stats(liker.key), liker: liker.kind,
                    now: now)
            }
            if !likers.isEmpty { memory.batch.drop() }
        }

        /// Up to `need` cards from the batch ranked before, when it still
        /// holds for `viewer` as they are now; each `check`ed against the
        /// database by key (nil: no longer eligible, passed over).
        public func fromBatch(
            viewer: Profile, need: Int, now: Date, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            guard memory.batch.holds(for: viewer) else { return [] }
            return try deal(viewer: viewer, need: need, now: now, skip: skip, check: check)
        }

        /// A fresh ranking of `viewer`'s window becomes the batch, and up to
        /// `need` of its best cards are dealt (`check` as in `fromBatch`),
        /// their impressions noted.
        public func refill(
            _ ranked: [Discovery.RankCandidate], viewer: Profile, need: Int, now: Date,
            skip: (Discovery.RankCandidate) -> Bool, check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            refills += 1
            memory.batch.fill(ranked, for: viewer)
            let taken = try deal(viewer: viewer, need: need, now: now, skip: skip, check: check)
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

        /// The cards with their reasons (`ProfileFeed.nextCards`).
        public func cards(_ profiles: [Profile]) -> [Discovery.DealtCard] {
            profiles.map { Discovery.DealtCard(profile: $0, reasons: reasons[$0.id] ?? []) }
        }

        private func deal(
            viewer: Profile, need: Int, now: Date, skip: (Discovery.RankCandidate) -> Bool,
            check: (Discovery.RankCandidate) throws -> Profile?
        ) rethrows -> [(key: Int, profile: Profile)] {
            try memory.batch.deal(need: need, skip: skip, check: check).map { candidate, profile in
                reasons[profile.id] = Ranking.reasons(
                    viewer: viewer, candidate: profile, stats: candidate.stats, liker: nil, now: now)
                return (candidate.key, profile)
            }
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
