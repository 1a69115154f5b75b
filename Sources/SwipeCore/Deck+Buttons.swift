/// Bottom buttons and the detail view.
extension Deck {
    /// like / hate / superlike on the top card. In the detail view the view
    /// closes first (`closeDetail`), then the same flow runs with via `.detail`.
    public mutating func button(_ decision: Decision) throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.button(decision)) }
        guard gesture == nil else { throw .gestureInProgress }
        guard topProfile != nil else { throw .noCard }
        var actions: [DeckAction] = []
        var via = Via.button
        if detailOpen {
            detailOpen = false
            actions.append(.closeDetail)
            via = .detail
        }
        let steps = preset.buttonSteps(decision)
        let rest = restingViews()
        let keyframes = steps.enumerated().map { index, step in
            var cards = index == steps.count - 1 ? advancedViews(top: step.pose) : rest
            cards[0].pose = step.pose
            return Keyframe(time: step.time, cards: cards, curve: step.curve)
        }
        let line = Timeline(name: "button-\(decision.rawValue)", duration: steps.last?.time ?? 0, keyframes: keyframes)
        return actions + remove(decision, via: via, timeline: line, exit: steps.last?.pose ?? rest[0].pose)
    }

    /// Tap on the top card: opens its detail view.
    public mutating func open() throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.open) }
        guard !detailOpen else { throw .inDetail }
        guard gesture == nil else { throw .gestureInProgress }
        guard let top = topProfile else { throw .noCard }
        detailOpen = true
        return [.showDetail(top)]
    }

    /// "back" from the detail view.
    public mutating func close() throws(DeckRefusal) -> [DeckAction] {
        if isBusy { return try enqueue(.close) }
        guard detailOpen else { throw .notInDetail }
        detailOpen = false
        return [.closeDetail]
    }
}
