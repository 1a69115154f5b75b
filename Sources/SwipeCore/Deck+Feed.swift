/// Loading profiles, recycling slots, the end of animations and the queue.
extension Deck {
    /// Asks the feed for every parked slot (all four for a new deck).
    public mutating func reload() throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.reload) }
        guard !detailOpen else { throw .inDetail }
        guard gesture == nil else { throw .gestureInProgress }
        pendingLoads = order.filter { profiles[$0] == nil }
        return pendingLoads.map { .load(slot: $0) }
    }

    /// The feed's answer to `load(slot:)`: nil when it is dry. A profile
    /// already in the deck is treated as nil (the deck never shows a profile
    /// twice); an answer for a slot that was not asked for is ignored.
    public mutating func loaded(_ profile: Profile?, into slot: Int) -> [DeckAction] {
        guard let index = pendingLoads.firstIndex(of: slot) else { return [] }
        pendingLoads.remove(at: index)
        if let profile, !profileIDs.contains(profile.id) {
            profiles[slot] = profile
            freshSlots.insert(slot)
        }
        guard pendingLoads.isEmpty else { return [] }
        packParkedSlots()
        if freshSlots.isEmpty {
            return (profileIDs.isEmpty ? [.becameEmpty] : []) + drainQueue()
        }
        let end = restingViews()
        let start = end.map { card in
            var card = card
            if freshSlots.contains(card.slot) { card.pose.alpha = 0 }
            return card
        }
        freshSlots = []
        let line = timeline("fade-in", from: start, to: end, Motion(duration: 0.2, curve: .easeInOut))
        running = Running(timeline: line, removesTop: false)
        return [.animate(line)]
    }

    /// The running timeline ended. After a removal the top slot goes to the
    /// back and is refilled (`load`); otherwise queued input is applied.
    public mutating func animationFinished() -> [DeckAction] {
        guard let finished = running else { return [] }
        running = nil
        guard finished.removesTop else { return drainQueue() }
        let slot = order.removeFirst()
        order.append(slot)
        profiles[slot] = nil
        pendingLoads = [slot]
        return [.load(slot: slot)]
    }

    mutating func enqueue(_ event: DeckEvent) throws(DeckRefusal) -> [DeckAction] {
        guard queue.count < Self.queueLimit else { throw .queueFull }
        queue.append(event)
        return [.queued(event.description)]
    }

    /// Applies waiting input in order until one of them starts an animation.
    mutating func drainQueue() -> [DeckAction] {
        var actions: [DeckAction] = []
        while !isBusy, !queue.isEmpty {
            let event = queue.removeFirst()
            do {
                actions += try apply(event)
            } catch {
                actions.append(.refused(event.description, error))
            }
        }
        return actions
    }
}
