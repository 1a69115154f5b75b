/// The four-card deck as a state machine (SwiftNIO style): a pure value type
/// with one `mutating` method per event, each returning the `DeckAction`s the
/// driver must perform, in order. No clock, no I/O: the driver loads profiles
/// (`load` → `loaded(_:into:)`) and plays timelines (`animate` →
/// `animationFinished()`).
///
/// The deck's mode is one private `State` whose cases carry their data, so a
/// combination that cannot happen (a queue while idle, a load pending during
/// an animation, a drag under the detail page) cannot be written. What the
/// cards are (`profiles`, `order`, `history`) lives beside it; the helpers in
/// `Deck+Slots.swift`, `Deck+Layout.swift` and `Deck+Timelines.swift` compute
/// from those and never touch the mode.
///
/// Four physical slots live as long as the deck. `order` lists them in state
/// order (first, second, third, other); when the top card leaves, its slot goes
/// to the back, is refilled from the feed and fades in, and every other slot
/// moves up one state. Slots without a profile are parked at the back.
///
/// While an animation runs or a load is pending, input is queued (and applied
/// when the deck is idle again) — never dropped; a physics change is refused.
public struct Deck: Sendable {
    /// How many inputs may wait for a running animation.
    public static let queueLimit = 32
    /// A velocity flick leaves at |vx| ≥ 1100 pt/s in the direction of dx
    /// (Shuffle), even under the distance threshold.
    public static let flickSpeed = 1100.0

    var preset: any CardPhysics
    /// The profile in each physical slot (nil = parked).
    var profiles: [Profile?] = [nil, nil, nil, nil]
    /// Physical slots in state order.
    var order = [0, 1, 2, 3]
    /// Decisions that can be undone, oldest first (shared between copies of the deck).
    var history = UndoStack<Removal>()
    /// Decisions made before this deck (`rememberEarlier`), most recent last:
    /// `undo` takes them back once `history` is empty.
    var earlier: [DeckDecision] = []
    private var state: State = .idle(.cards)

    /// What the person has in front of them. A busy deck keeps it: a card
    /// below the top can be withdrawn while the top one is held or its detail
    /// page is open, and the drag or the page carries on.
    private enum Screen: Hashable, Sendable {
        /// The cards, nothing held.
        case cards
        /// The top card held at this translation since the gesture began.
        case dragging(Point)
        /// The top card's detail page.
        case detail
    }

    private enum State: Sendable {
        /// Nothing running: input applies at once.
        case idle(Screen)
        /// `load` was asked for the `pending` slots (in that order); `fresh`
        /// are the slots filled so far, which fade in once all have answered.
        case loading(pending: [Int], fresh: Set<Int>, screen: Screen, queue: [DeckEvent])
        /// A timeline plays. If its kind removes the top card, its slot goes
        /// to the back and is refilled when it ends.
        case animating(Timeline, screen: Screen, queue: [DeckEvent])

        var screen: Screen {
            switch self {
            case let .idle(screen), let .loading(_, _, screen, _), let .animating(_, screen, _): screen
            }
        }

        /// Input waiting for the deck to be idle again, oldest first.
        var queue: [DeckEvent] {
            switch self {
            case .idle: []
            case let .loading(_, _, _, queue), let .animating(_, _, queue): queue
            }
        }

        /// The same state with `queue` waiting (a busy state; idle waits for nothing).
        func waiting(_ queue: [DeckEvent]) -> State {
            switch self {
            case .idle: self
            case let .loading(pending, fresh, screen, _):
                .loading(pending: pending, fresh: fresh, screen: screen, queue: queue)
            case let .animating(line, screen, _): .animating(line, screen: screen, queue: queue)
            }
        }
    }

    /// A decided card: what was decided, the slot it left, where it flew to.
    struct Removal: Sendable {
        var decision: DeckDecision
        var slot: Int
        var exit: CardPose
    }

    /// An empty deck (mode `.empty`); call `reload()` to ask the feed.
    public init(physics: PhysicsKind = .tantan) {
        self.preset = physics.preset
    }

    /// The preset moving the cards.
    public var physics: PhysicsKind { preset.kind }

    /// Ids of every profile in the deck: what a feed must exclude.
    public var profileIDs: Set<String> {
        Set(profiles.compactMap { $0?.id })
    }

    /// Decisions `undo` can take back, most recent last.
    public var undoable: [DeckDecision] {
        earlier + history.elements.map(\.decision)
    }

    /// Whether `undo` has a decision to take back (`undoable` is not empty),
    /// without listing them.
    public var canUndo: Bool { !history.isEmpty || !earlier.isEmpty }

    /// Inputs waiting for the running animation, oldest first.
    public var queuedEvents: [DeckEvent] { state.queue }

    /// True while a timeline plays or a load is pending: input is queued.
    public var isBusy: Bool {
        if case .idle = state { false } else { true }
    }

    private var screen: Screen { state.screen }

    var topProfile: Profile? { profiles[order[0]] }

    public var snapshot: DeckSnapshot {
        var indicators = Indicators.resting
        var dragging: Point?
        if case let .dragging(translation) = screen { dragging = translation }
        let cards: [CardView]
        if case let .animating(line, _, _) = state, let last = line.keyframes.last {
            cards = last.cards
        } else if let dragging {
            let frame = preset.dragged(dx: dragging.x, dy: dragging.y)
            indicators = frame.indicators
            cards = views(frame.poses)
        } else {
            cards = restingViews()
        }
        let mode: DeckMode
        if screen == .detail, let top = topProfile {
            mode = .detail(top)
        } else {
            mode = profileIDs.isEmpty ? .empty : .deck
        }
        return DeckSnapshot(
            mode: mode, cards: cards, indicators: indicators, physics: physics,
            isAnimating: isBusy, dragging: dragging)
    }

    /// Applies any event; the controller goes through here.
    public mutating func apply(_ event: DeckEvent) throws(DeckRefusal) -> [DeckAction] {
        switch event {
        case let .drag(dx, dy): try drag(dx: dx, dy: dy)
        case let .release(vx, vy): try release(vx: vx, vy: vy)
        case .cancel: cancelGesture()
        case let .button(decision): try button(decision)
        case .open: try open()
        case .close: try close()
        case .undo: try undo()
        case .reload: try reload()
        case let .setPhysics(kind): try setPhysics(kind)
        case let .withdraw(id): try withdraw(id)
        case .animationFinished: animationFinished()
        }
    }

    // MARK: Gestures

    /// The gesture's translation since it began; starts a gesture if none.
    public mutating func drag(dx: Double, dy: Double) throws(DeckRefusal) -> [DeckAction] {
        try DeckRefusal.check(dx, "dx")
        try DeckRefusal.check(dy, "dy")
        guard case .idle(let screen) = state else { return try enqueue(.drag(dx: dx, dy: dy)) }
        guard screen != .detail else { throw .inDetail }
        guard topProfile != nil else { throw .noCard }
        state = .idle(.dragging(Point(x: dx, y: dy)))
        return []
    }

    /// Ends the gesture: the card flies out (recording the decision) or every
    /// card springs back.
    public mutating func release(vx: Double = 0, vy: Double = 0) throws(DeckRefusal) -> [DeckAction] {
        try DeckRefusal.check(vx, "vx")
        try DeckRefusal.check(vy, "vy")
        guard case .idle(let screen) = state else { return try enqueue(.release(vx: vx, vy: vy)) }
        switch screen {
        case .detail: throw .inDetail
        case .cards: throw .noGesture
        case let .dragging(gesture):
            let frame = preset.dragged(dx: gesture.x, dy: gesture.y)
            guard
                let decision = preset.decision(releasedAt: gesture.x, dy: gesture.y)
                    ?? (preset.decidesFlicks ? Self.flick(dx: gesture.x, vx: vx) : nil)
            else {
                return play(springBackTimeline(from: frame))
            }
            let flight = preset.flyOut(decision, dx: gesture.x, dy: gesture.y)
            let line = timeline(.flyOut, from: views(frame.poses), to: advancedViews(top: flight.end), flight.motion)
            return remove(decision, via: .drag, timeline: line, exit: flight.end)
        }
    }

    /// Abandons the gesture: every card springs back. Without a gesture it
    /// does nothing.
    public mutating func cancelGesture() -> [DeckAction] {
        guard case .idle(let screen) = state else {
            do {
                return try enqueue(.cancel)
            } catch {
                return [.refused(.cancel, error)]
            }
        }
        guard case let .dragging(gesture) = screen else { return [] }
        return play(springBackTimeline(from: preset.dragged(dx: gesture.x, dy: gesture.y)))
    }

    // MARK: Buttons and the detail page

    /// like / hate / superlike on the top card. In the detail view the view
    /// closes first (`closeDetail`), then the same flow runs with via `.detail`.
    public mutating func button(_ decision: Decision) throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { return try enqueue(.button(decision)) }
        if case .dragging = screen { throw .gestureInProgress }
        guard topProfile != nil else { throw .noCard }
        let fromDetail = screen == .detail
        let (line, exit) = buttonTimeline(decision)
        return (fromDetail ? [.closeDetail] : [])
            + remove(decision, via: fromDetail ? .detail : .button, timeline: line, exit: exit)
    }

    /// Tap on the top card: opens its detail view.
    public mutating func open() throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { return try enqueue(.open) }
        switch screen {
        case .detail: throw .inDetail
        case .dragging: throw .gestureInProgress
        case .cards:
            guard let top = topProfile else { throw .noCard }
            state = .idle(.detail)
            return [.showDetail(top)]
        }
    }

    /// "back" from the detail view.
    public mutating func close() throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { return try enqueue(.close) }
        guard screen == .detail else { throw .notInDetail }
        state = .idle(.cards)
        return [.closeDetail]
    }

    // MARK: Undo, reload, physics, withdraw

    /// Brings the last decided card back on top, in the slot it left; the
    /// cards below move down one state. If that slot had been refilled, its
    /// profile was never decided: it leaves the deck and the feed offers it
    /// again later. Repeated undo walks further back.
    public mutating func undo() throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { return try enqueue(.undo) }
        switch screen {
        case .dragging: throw .gestureInProgress
        case .detail: throw .inDetail
        case .cards:
            if let removal = history.popLast() {
                return [.unrecord(removal.decision)] + play(putBack(removal))
            }
            guard let decision = earlier.popLast(), let back = order.last else { throw .nothingToUndo }
            // Decided before this deck: back on top through the back slot
            // (whose card, never decided, the feed offers again later),
            // coming in from where a button's decision would have sent it.
            let removal = Removal(decision: decision, slot: back, exit: buttonTimeline(decision.decision).exit)
            return [.unrecord(decision)] + play(putBack(removal))
        }
    }

    /// Makes `decision`, made before this deck existed (an earlier session,
    /// another process), the next one `undo` takes back, once this deck's
    /// own are taken back. Ignored when its profile is in the deck already.
    public mutating func rememberEarlier(_ decision: DeckDecision) {
        guard !profileIDs.contains(decision.profile.id) else { return }
        earlier.append(decision)
    }

    /// Asks the feed for every parked slot (all four for a new deck).
    public mutating func reload() throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { return try enqueue(.reload) }
        switch screen {
        case .detail: throw .inDetail
        case .dragging: throw .gestureInProgress
        case .cards:
            let parked = order.filter { profiles[$0] == nil }
            guard !parked.isEmpty else { return [] }
            state = .loading(pending: parked, fresh: [], screen: .cards, queue: [])
            return parked.map { .load(slot: $0) }
        }
    }

    /// Switches preset; refused mid-gesture or while busy. Cards take the new
    /// resting layout at once.
    public mutating func setPhysics(_ kind: PhysicsKind) throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(let screen) = state else { throw .physicsWhileBusy }
        if case .dragging = screen { throw .gestureInProgress }
        preset = kind.preset
        return []
    }

    /// The profile `id` left the deck without a decision of this deck's: the
    /// viewer decided it elsewhere (another session, a decisions import)
    /// after the card was drawn, so recording a decision on it is refused and
    /// it must not stay. The feed must no longer offer it (the store's feed
    /// reads the decision back; `InMemoryFeed.decidedElsewhere`). Its slot is
    /// emptied and goes to the back, the cards below move up one state at
    /// once, and the slot is refilled from the feed (`load`, then a fade-in).
    /// A drag of the top card is dropped and its detail page closed
    /// (`closeDetail`); a drag or page of another card carries on. Nothing is
    /// recorded, and `undo` keeps its history: undoing brings back the last
    /// card this deck decided, as after any other refill. An id not in the
    /// deck changes nothing. Never refused; while busy it waits in the queue.
    public mutating func withdraw(_ id: String) throws(DeckRefusal) -> [DeckAction] {
        guard case .idle(var screen) = state else { return try enqueue(.withdraw(id)) }
        guard let slot = order.first(where: { profiles[$0]?.id == id }) else { return [] }
        var actions: [DeckAction] = []
        if slot == order[0] {
            if screen == .detail { actions.append(.closeDetail) }
            screen = .cards
        }
        empty(slot)
        state = .loading(pending: [slot], fresh: [], screen: screen, queue: [])
        return actions + [.load(slot: slot)]
    }

    // MARK: Answers from the driver

    /// The feed's answer to `load(slot:)`: nil when it is dry. A profile
    /// already in the deck is treated as nil (the deck never shows a profile
    /// twice); an answer for a slot that was not asked for is ignored.
    public mutating func loaded(_ profile: Profile?, into slot: Int) -> [DeckAction] {
        guard case .loading(var pending, var fresh, let screen, let queue) = state,
            let index = pending.firstIndex(of: slot)
        else { return [] }
        pending.remove(at: index)
        if let profile, !profileIDs.contains(profile.id) {
            profiles[slot] = profile
            fresh.insert(slot)
        }
        guard pending.isEmpty else {
            state = .loading(pending: pending, fresh: fresh, screen: screen, queue: queue)
            return []
        }
        packParkedSlots()
        guard !fresh.isEmpty else {
            state = .idle(screen)
            return (profileIDs.isEmpty ? [.becameEmpty] : []) + drain(queue)
        }
        let line = fadeInTimeline(fresh)
        state = .animating(line, screen: screen, queue: queue)
        return [.animate(line)]
    }

    /// The running timeline ended. After a removal the top slot goes to the
    /// back and is refilled (`load`); otherwise queued input is applied.
    public mutating func animationFinished() -> [DeckAction] {
        guard case let .animating(line, screen, queue) = state else { return [] }
        guard line.kind.removesTopCard else {
            state = .idle(screen)
            return drain(queue)
        }
        let slot = order[0]
        empty(slot)
        state = .loading(pending: [slot], fresh: [], screen: screen, queue: queue)
        return [.load(slot: slot)]
    }

    // MARK: Transitions shared by the events

    /// Records `decision` about the top card and starts its removal; the
    /// gesture or detail page it came from is over.
    private mutating func remove(_ decision: Decision, via: Via, timeline: Timeline, exit: CardPose) -> [DeckAction] {
        guard let profile = topProfile else { return [] }
        let made = DeckDecision(profile: profile, decision: decision, via: via)
        history.append(Removal(decision: made, slot: order[0], exit: exit))
        return [.record(made)] + play(timeline)
    }

    /// Starts `line` from an idle deck, back on the cards.
    private mutating func play(_ line: Timeline) -> [DeckAction] {
        state = .animating(line, screen: .cards, queue: [])
        return [.animate(line)]
    }

    /// Puts `event` at the end of the busy deck's queue.
    private mutating func enqueue(_ event: DeckEvent) throws(DeckRefusal) -> [DeckAction] {
        let queue = state.queue
        guard queue.count < Self.queueLimit else { throw .queueFull }
        state = state.waiting(queue + [event])
        return [.queued(event)]
    }

    /// Applies waiting input in order until one of them makes the deck busy
    /// again; the rest waits for that.
    private mutating func drain(_ queue: [DeckEvent]) -> [DeckAction] {
        var waiting = queue[...]
        var actions: [DeckAction] = []
        while !isBusy, let event = waiting.popFirst() {
            do {
                actions += try apply(event)
            } catch {
                actions.append(.refused(event, error))
            }
        }
        if !waiting.isEmpty { state = state.waiting(Array(waiting)) }
        return actions
    }

    static func flick(dx: Double, vx: Double) -> Decision? {
        guard abs(vx) >= flickSpeed, dx != 0, (vx > 0) == (dx > 0) else { return nil }
        return dx > 0 ? .like : .hate
    }
}
