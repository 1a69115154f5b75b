/// How a preset moves cards. One conforming type per file; a new preset is
/// that file plus one `PhysicsKind` case naming it.
///
/// Poses are in DeckGeometry's 375 × 667 screen. The deck owns everything
/// else (slots, recycling, queueing, decisions, undo, timelines): a preset only
/// answers geometric questions.
public protocol CardPhysics: Sendable {
    var kind: PhysicsKind { get }
    /// Pose of a card resting in `state`.
    func resting(_ state: CardState) -> CardPose
    /// Poses of the four states (first, second, third, other) and the
    /// indicators for a drag translation (dx, dy) of the top card.
    func dragged(dx: Double, dy: Double) -> DragFrame
    /// What a release at (dx, dy) decides by distance alone (nil = springs
    /// back, unless the deck sees a velocity flick).
    func decision(releasedAt dx: Double, dy: Double) -> Decision?
    /// Whether a velocity flick can decide what the distance did not (true
    /// unless the preset says otherwise).
    var decidesFlicks: Bool { get }
    /// Where the top card, released at (dx, dy), flies for `decision`.
    func flyOut(_ decision: Decision, dx: Double, dy: Double) -> Flight
    /// How cards return to rest after a release that decided nothing.
    var springBack: Motion { get }
    /// The top card's poses for a button tap, first at time 0 (rest), last at
    /// the end; the cards below advance during the last step.
    func buttonSteps(_ decision: Decision) -> [ButtonStep]
}

/// The four poses of a drag and its indicators.
public struct DragFrame: Hashable, Sendable {
    /// By state rank: first, second, third, other.
    public var poses: [CardPose]
    public var indicators: Indicators

    public init(poses: [CardPose], indicators: Indicators) {
        self.poses = poses
        self.indicators = indicators
    }
}

/// A duration and a curve.
public struct Motion: Hashable, Sendable {
    public var duration: Double
    public var curve: Curve

    public init(duration: Double, curve: Curve) {
        self.duration = duration
        self.curve = curve
    }
}

/// Where a card ends and how it gets there.
public struct Flight: Hashable, Sendable {
    public var end: CardPose
    public var motion: Motion

    public init(end: CardPose, motion: Motion) {
        self.end = end
        self.motion = motion
    }
}

/// The top card's pose at `time` seconds into a button animation.
public struct ButtonStep: Hashable, Sendable {
    public var time: Double
    public var pose: CardPose
    public var curve: Curve

    public init(time: Double, pose: CardPose, curve: Curve) {
        self.time = time
        self.pose = pose
        self.curve = curve
    }
}

extension CardPhysics {
    public var decidesFlicks: Bool { true }

    /// TanTan's button animation (README, "The deck model"), the default for every preset
    /// whose seed has no buttons of its own. 0.8 s: [0, ¼] recoil (like −10 pt
    /// and −5°, hate +10 pt and +5°), [¼, ½] back to rest, [½, 1] fly to
    /// x = 2W (like) or −W (hate) with rotation (x/(W/2) − 1)·π/8 (±67.5°).
    ///
    /// Superlike (beyond the seeds): recoil 10 pt down without rotation, back,
    /// then fly straight up to y = −400 (one card height above the screen),
    /// rotation 0 — the upward counterpart of the horizontal fly.
    public func buttonSteps(_ decision: Decision) -> [ButtonStep] {
        let rest = resting(.first)
        let width = DeckGeometry.screenWidth
        let recoil: CardPose
        var fly = rest
        switch decision {
        case .like, .hate:
            let sign: Double = decision == .like ? 1 : -1
            recoil = CardPose(
                center: Point(x: rest.center.x - 10 * sign, y: rest.center.y),
                scale: rest.scale, rotation: -sign * 5 * .pi / 180, alpha: rest.alpha)
            let x = decision == .like ? 2 * width : -width
            fly.center = Point(x: x, y: rest.center.y)
            fly.rotation = (x / (width / 2) - 1) * .pi / 8
        case .superlike:
            recoil = rest.moved(dx: 0, dy: 10)
            fly.center = Point(x: rest.center.x, y: DeckGeometry.offscreenUpY)
        }
        return [
            ButtonStep(time: 0, pose: rest, curve: .linear),
            ButtonStep(time: 0.2, pose: recoil, curve: .easeInOut),
            ButtonStep(time: 0.4, pose: rest, curve: .easeInOut),
            ButtonStep(time: 0.8, pose: fly, curve: .easeInOut),
        ]
    }
}
