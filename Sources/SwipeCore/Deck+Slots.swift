/// Which profile sits in which slot: the content changes the events make,
/// apart from the deck's mode.
extension Deck {
    /// Empties `slot` and sends it to the back; the slots behind it move up
    /// one state. The top card leaving after its removal, or a withdrawn card.
    mutating func empty(_ slot: Int) {
        profiles[slot] = nil
        order.removeAll { $0 == slot }
        order.append(slot)
    }

    /// Puts `removal`'s card back on top in the slot it left (a refilled
    /// slot's profile, never decided, leaves the deck) and returns the undo
    /// timeline: the card comes back from where it flew to, the others move
    /// down one state.
    mutating func putBack(_ removal: Removal) -> Timeline {
        let before = Dictionary(uniqueKeysWithValues: restingViews().map { ($0.slot, $0.pose) })
        profiles[removal.slot] = removal.decision.profile
        order.removeAll { $0 == removal.slot }
        order.insert(removal.slot, at: 0)
        packParkedSlots()
        var start = restingViews()
        for index in start.indices {
            start[index].pose =
                start[index].slot == removal.slot
                ? removal.exit.with(alpha: 1) : before[start[index].slot] ?? start[index].pose
        }
        return timeline(.undo, from: start, to: restingViews(), Motion(duration: 0.3, curve: .easeInOut))
    }

    /// Moves parked slots behind the filled ones, keeping both in order.
    mutating func packParkedSlots() {
        order = order.filter { profiles[$0] != nil } + order.filter { profiles[$0] == nil }
    }
}
