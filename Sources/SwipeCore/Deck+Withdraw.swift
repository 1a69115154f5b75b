/// Cards that leave without a decision.
extension Deck {
    /// The profile `id` left the deck without a decision of this deck's: the
    /// viewer decided it elsewhere (another session, a decisions import)
    /// after the card was drawn, so recording a decision on it is refused and
    /// it must not stay. The feed must no longer offer it (the store's feed
    /// reads the decision back; `InMemoryFeed.decidedElsewhere`). Its slot is emptied and goes to the back, the cards
    /// below move up one state at once, and the slot is refilled from the feed
    /// (`load`, then a fade-in). A drag of the top card is dropped and its
    /// detail page closed (`closeDetail`). Nothing is recorded, and `undo`
    /// keeps its history: undoing brings back the last card this deck
    /// decided, as after any other refill. An id not in the deck changes
    /// nothing. Never refused; while busy it waits in the queue.
    public mutating func withdraw(_ id: String) throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.withdraw(id)) }
        guard let slot = order.first(where: { profiles[$0]?.id == id }) else { return [] }
        var actions: [DeckAction] = []
        if slot == order[0] {
            gesture = nil
            if detailOpen {
                detailOpen = false
                actions.append(.closeDetail)
            }
        }
        profiles[slot] = nil
        order.removeAll { $0 == slot }
        order.append(slot)
        pendingLoads = [slot]
        return actions + [.load(slot: slot)]
    }
}
