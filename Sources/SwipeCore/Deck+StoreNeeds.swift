/// Whether an event will need the store, known before it is applied: what
/// lets `swipe serve` answer a gesture that only springs back on its event
/// loop instead of sending it to the threads that wait on the database.
extension Deck {
    /// Whether applying `event` would ask the store for anything: a decision
    /// to record or take back, a card to load. Worked out on a copy (this deck
    /// is unchanged), with each animation finished at once when
    /// `settlingAnimations` (as `DeckController` finishes them). An event the
    /// deck refuses asks nothing.
    public func wouldAskTheStore(_ event: DeckEvent, settlingAnimations: Bool) -> Bool {
        var copy = self
        guard let actions = try? copy.apply(event) else { return false }
        return Self.ask(actions, &copy, settlingAnimations)
    }

    private static func ask(_ actions: [DeckAction], _ deck: inout Deck, _ settling: Bool) -> Bool {
        for action in actions {
            switch action {
            case .record, .unrecord, .load:
                return true
            case .animate where settling:
                if ask(deck.animationFinished(), &deck, settling) { return true }
            default:
                continue
            }
        }
        return false
    }
}
