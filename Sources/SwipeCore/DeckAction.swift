/// What the driver must do, in order (SwiftNIO style). `record` always precedes
/// the `load` that refills the slot, so a driver that performs actions in order
/// has stored the decision before it asks the feed again.
public enum DeckAction: Hashable, Sendable {
    /// Store this decision.
    case record(DeckDecision)
    /// Undo: the driver stamps `undone_at` on this decision.
    case unrecord(DeckDecision)
    /// Ask the feed for one profile (excluding every id in the deck), then call
    /// `deck.loaded(_:into:)` — with nil when the feed is dry.
    case load(slot: Int)
    /// Play, then call `deck.animationFinished()`.
    case animate(Timeline)
    case showDetail(Profile)
    case closeDetail
    /// The last card left and the feed is dry (or a reload found nothing).
    case becameEmpty
    /// The event waits until the running animation finishes.
    case queued(DeckEvent)
    /// A queued event turned out impossible when its turn came; it was not
    /// applied, for this reason. Addition to the API contract: a queued input
    /// is never dropped silently.
    case refused(DeckEvent, DeckRefusal)
}
