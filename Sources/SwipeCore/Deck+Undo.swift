/// Taking decisions back.
extension Deck {
    /// Brings the last decided card back on top, in the slot it left; the
    /// cards below move down one state. If that slot had been refilled, its
    /// profile was never decided: it leaves the deck and the feed offers it
    /// again later. Repeated undo walks further back.
    public mutating func undo() throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.undo) }
        guard gesture == nil else { throw .gestureInProgress }
        guard !detailOpen else { throw .inDetail }
        guard let removal = history.popLast() else { throw .nothingToUndo }
        let before = Dictionary(uniqueKeysWithValues: restingViews().map { ($0.slot, $0.pose) })
        profiles[removal.slot] = removal.decision.profile
        order.removeAll { $0 == removal.slot }
        order.insert(removal.slot, at: 0)
        packParkedSlots()
        var start = restingViews()
        for index in start.indices {
            start[index].pose = start[index].slot == removal.slot
                ? removal.exit.with(alpha: 1) : before[start[index].slot] ?? start[index].pose
        }
        let line = timeline("undo", from: start, to: restingViews(), Motion(duration: 0.3, curve: .easeInOut))
        running = Running(timeline: line, removesTop: false)
        return [.unrecord(removal.decision), .animate(line)]
    }
}
