/// Drag, release and cancel of the top card.
extension Deck {
    /// A velocity flick leaves at |vx| ≥ 1100 pt/s in the direction of dx
    /// (Shuffle), even under the distance threshold.
    public static let flickSpeed = 1100.0

    /// The gesture's translation since it began; starts a gesture if none.
    public mutating func drag(dx: Double, dy: Double) throws(DeckRefusal) -> [DeckAction] {
        try DeckRefusal.check(dx, "dx")
        try DeckRefusal.check(dy, "dy")
        if isBusy { return try enqueue(.drag(dx: dx, dy: dy)) }
        guard !detailOpen else { throw .inDetail }
        guard topProfile != nil else { throw .noCard }
        gesture = Point(x: dx, y: dy)
        return []
    }

    /// Ends the gesture: the card flies out (recording the decision) or every
    /// card springs back.
    public mutating func release(vx: Double = 0, vy: Double = 0) throws(DeckRefusal) -> [DeckAction] {
        try DeckRefusal.check(vx, "vx")
        try DeckRefusal.check(vy, "vy")
        if isBusy { return try enqueue(.release(vx: vx, vy: vy)) }
        guard !detailOpen else { throw .inDetail }
        guard let gesture else { throw .noGesture }
        let frame = preset.dragged(dx: gesture.x, dy: gesture.y)
        guard let decision = preset.decision(releasedAt: gesture.x, dy: gesture.y)
            ?? Self.flick(dx: gesture.x, vx: vx)
        else {
            return springBack(from: frame)
        }
        let flight = preset.flyOut(decision, dx: gesture.x, dy: gesture.y)
        let line = timeline("fly-out", from: views(frame.poses), to: advancedViews(top: flight.end), flight.motion)
        return remove(decision, via: .drag, timeline: line, exit: flight.end)
    }

    /// Abandons the gesture: every card springs back. Without a gesture it
    /// does nothing.
    public mutating func cancelGesture() -> [DeckAction] {
        if isBusy {
            do {
                return try enqueue(.cancel)
            } catch {
                return [.refused(DeckEvent.cancel.description, error)]
            }
        }
        guard let gesture else { return [] }
        return springBack(from: preset.dragged(dx: gesture.x, dy: gesture.y))
    }

    static func flick(dx: Double, vx: Double) -> Decision? {
        guard abs(vx) >= flickSpeed, dx != 0, (vx > 0) == (dx > 0) else { return nil }
        return dx > 0 ? .like : .hate
    }

    mutating func springBack(from frame: DragFrame) -> [DeckAction] {
        let line = timeline("spring-back", from: views(frame.poses), to: restingViews(), preset.springBack)
        gesture = nil
        running = Running(timeline: line, removesTop: false)
        return [.animate(line)]
    }

    /// Records `decision` about the top card and starts its removal.
    mutating func remove(_ decision: Decision, via: Via, timeline: Timeline, exit: CardPose) -> [DeckAction] {
        guard let profile = topProfile else { return [] }
        let made = DeckDecision(profile: profile, decision: decision, via: via)
        history.append(Removal(decision: made, slot: order[0], exit: exit))
        gesture = nil
        running = Running(timeline: timeline, removesTop: true)
        return [.record(made), .animate(timeline)]
    }
}
