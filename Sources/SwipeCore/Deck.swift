/// The four-card deck as a state machine (SwiftNIO style): a pure value type
/// with one `mutating` method per event, each returning the `DeckAction`s the
/// driver must perform, in order. No clock, no I/O: the driver loads profiles
/// (`load` → `loaded(_:into:)`) and plays timelines (`animate` →
/// `animationFinished()`).
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

    public private(set) var physics: PhysicsKind
    var preset: any CardPhysics
    /// The profile in each physical slot (nil = parked).
    var profiles: [Profile?] = [nil, nil, nil, nil]
    /// Physical slots in state order.
    var order = [0, 1, 2, 3]
    var detailOpen = false
    /// Translation of the gesture in progress.
    var gesture: Point?
    var running: Running?
    /// Slots waiting for `loaded`, in the order they were asked for.
    var pendingLoads: [Int] = []
    /// Slots filled by the current round of loads, to fade in.
    var freshSlots: Set<Int> = []
    var queue: [DeckEvent] = []
    /// Decisions that can be undone, oldest first.
    var history: [Removal] = []

    /// The animation being played and whether its end recycles the top card.
    struct Running: Sendable {
        var timeline: Timeline
        var removesTop: Bool
    }

    /// A decided card: what was decided, the slot it left, where it flew to.
    struct Removal: Sendable {
        var decision: DeckDecision
        var slot: Int
        var exit: CardPose
    }

    /// An empty deck (mode `.empty`); call `reload()` to ask the feed.
    public init(physics: PhysicsKind = .tantan) {
        self.physics = physics
        self.preset = physics.preset
    }

    /// Ids of every profile in the deck: what a feed must exclude.
    public var profileIDs: Set<String> {
        Set(profiles.compactMap { $0?.id })
    }

    /// Decisions `undo` can take back, most recent last.
    public var undoable: [DeckDecision] {
        history.map(\.decision)
    }

    /// Inputs waiting for the running animation, oldest first.
    public var queuedEvents: [DeckEvent] { queue }

    /// True while a timeline plays or a load is pending: input is queued.
    public var isBusy: Bool { running != nil || !pendingLoads.isEmpty }

    var topProfile: Profile? { profiles[order[0]] }

    public var snapshot: DeckSnapshot {
        var indicators = Indicators.resting
        let cards: [CardView]
        if let running, let last = running.timeline.keyframes.last {
            cards = last.cards
        } else if let gesture {
            let frame = preset.dragged(dx: gesture.x, dy: gesture.y)
            indicators = frame.indicators
            cards = views(frame.poses)
        } else {
            cards = restingViews()
        }
        let mode: DeckMode
        if detailOpen, let top = topProfile {
            mode = .detail(top)
        } else {
            mode = profileIDs.isEmpty ? .empty : .deck
        }
        return DeckSnapshot(mode: mode, cards: cards, indicators: indicators, physics: physics,
                            isAnimating: isBusy, dragging: gesture)
    }

    /// Applies any event; the REPL and the controller go through here.
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

    /// Switches preset; refused mid-gesture or while busy. Cards take the new
    /// resting layout at once.
    public mutating func setPhysics(_ kind: PhysicsKind) throws(DeckRefusal) -> [DeckAction] {
        guard !isBusy else { throw .physicsWhileBusy }
        guard gesture == nil else { throw .gestureInProgress }
        physics = kind
        preset = kind.preset
        return []
    }
}
