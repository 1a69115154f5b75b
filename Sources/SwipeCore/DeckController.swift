/// A synchronous driver for callers without a run loop (the REPL, tests): owns
/// a `Deck` and a feed, performs every `load` at once (asking the feed with
/// the deck's ids excluded) and, when `settlesImmediately`, finishes every
/// animation at once, then hands back what happened.
public struct DeckController<Feed: ProfileFeed> {
    public private(set) var deck: Deck
    public var feed: Feed
    public let settlesImmediately: Bool

    /// Fills the deck from `feed`.
    public init(feed: Feed, physics: PhysicsKind = .tantan, settlesImmediately: Bool = true) throws {
        self.feed = feed
        self.deck = Deck(physics: physics)
        self.settlesImmediately = settlesImmediately
        _ = try handle(.reload) { _ in }
    }

    public var snapshot: DeckSnapshot { deck.snapshot }

    /// Whether `handle(event)` would call the recorder or the feed (`Deck.wouldAskTheStore`).
    public func wouldAskTheStore(_ event: DeckEvent) -> Bool {
        deck.wouldAskTheStore(event, settlingAnimations: settlesImmediately)
    }

    /// `Deck.rememberEarlier`: a decision made before this deck, for `undo`.
    public mutating func rememberEarlier(_ decision: DeckDecision) {
        deck.rememberEarlier(decision)
    }

    /// Applies one event. `recorder` is called for every record/unrecord
    /// action, in order, before any later load, so the store has the decision
    /// before the feed is asked again. Throws `DeckRefusal` (state unchanged)
    /// or whatever the feed or the recorder throws. If that happens before any
    /// record/unrecord succeeded, deck and feed are as before the event (so a
    /// failed store write changes nothing and can be retried); after one, the
    /// deck keeps what was stored and a failed load parks its slot (`reload`
    /// asks again).
    public mutating func handle(_ event: DeckEvent, recorder: (DeckAction) throws -> Void) throws -> DeckOutcome {
        var outcome = DeckOutcome(actions: [], decisions: [], undone: [], snapshot: deck.snapshot)
        let saved = (deck, feed)
        do {
            try perform(deck.apply(event), into: &outcome, recorder: recorder)
        } catch {
            if outcome.decisions.isEmpty, outcome.undone.isEmpty { (deck, feed) = saved }
            throw error
        }
        outcome.snapshot = deck.snapshot
        return outcome
    }

    private mutating func perform(
        _ actions: [DeckAction], into outcome: inout DeckOutcome,
        recorder: (DeckAction) throws -> Void
    ) throws {
        for action in actions {
            outcome.actions.append(action)
            switch action {
            case let .record(made):
                try recorder(action)
                feed.deckDidRecord(action)
                outcome.decisions.append(made)
            case let .unrecord(made):
                try recorder(action)
                feed.deckDidRecord(action)
                outcome.undone.append(made)
            case let .load(slot):
                let next: Profile?
                do {
                    next = try feed.nextProfiles(limit: 1, excluding: deck.profileIDs).first
                } catch {
                    var ignored = outcome
                    try perform(deck.loaded(nil, into: slot), into: &ignored, recorder: recorder)
                    throw error
                }
                try perform(deck.loaded(next, into: slot), into: &outcome, recorder: recorder)
            case .animate where settlesImmediately:
                try perform(deck.animationFinished(), into: &outcome, recorder: recorder)
            default:
                break
            }
        }
    }
}
