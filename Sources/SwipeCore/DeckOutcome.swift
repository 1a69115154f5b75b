/// What one event did, after the controller performed the loads (and, when it
/// settles immediately, the animations).
public struct DeckOutcome: Hashable, Sendable {
    /// Everything that happened, in order (incl. timelines and detail open/close).
    public var actions: [DeckAction]
    /// Recorded by this event.
    public var decisions: [DeckDecision]
    /// Undone by this event.
    public var undone: [DeckDecision]
    /// After settling.
    public var snapshot: DeckSnapshot

    public init(actions: [DeckAction], decisions: [DeckDecision], undone: [DeckDecision], snapshot: DeckSnapshot) {
        self.actions = actions
        self.decisions = decisions
        self.undone = undone
        self.snapshot = snapshot
    }
}
