/// A scrubbed UIViewPropertyAnimator (seed 001).
///
/// Screen mapping: the seed animates one view by translationX 275 and alpha
/// 0 over 3 s (easeOut) and scrubs it with the drag. Here that view is the top
/// card at its rest (187.5, 273.5); the cards below rest in TanTan's layout and
/// do not move while scrubbing (the seed has none). progress = clamp(dx/275, 0, 1);
/// centre x = 187.5 + 275·progress (dy ignored), alpha = 1 − progress. A release
/// with progress > 0 continues the animation to its end, a like: the remaining
/// 3·(1 − progress) seconds, easeOut (the seed's `durationFactor: 0`). A release
/// at progress 0 (no drag, a drag left, straight up or down) has nothing to
/// continue: the card rests and nothing is decided, a flick included (the
/// animation only runs forward, so no flick can decide what it would not).
/// Indicators: like = progress.
public struct ScrubPhysics: CardPhysics {
    public static let distance = 275.0
    public static let duration = 3.0

    public init() {}

    public var kind: PhysicsKind { .scrub }

    public func resting(_ state: CardState) -> CardPose {
        TanTanPhysics().resting(state)
    }

    func progress(dx: Double) -> Double {
        clamp(dx / Self.distance, 0, 1)
    }

    public func dragged(dx: Double, dy: Double) -> DragFrame {
        let progress = progress(dx: dx)
        let top = CardPose(center: DeckGeometry.restCenter, alpha: 1 - progress).moved(
            dx: Self.distance * progress, dy: 0)
        let indicators = Indicators(
            like: progress, hate: 0, likeBorder: 5 * (1 - progress), hateBorder: 5,
            progress: progress)
        return DragFrame(poses: [top] + [CardState.second, .third, .other].map(resting), indicators: indicators)
    }

    public func decision(releasedAt dx: Double, dy: Double) -> Decision? {
        progress(dx: dx) > 0 ? .like : nil
    }

    public var decidesFlicks: Bool { false }

    /// The animation's end (x + 275, alpha 0) for like; mirrored for hate and
    /// straight up for superlike (reachable only through another preset's
    /// rules, kept total).
    public func flyOut(_ decision: Decision, dx: Double, dy: Double) -> Flight {
        var end = CardPose(center: DeckGeometry.restCenter, alpha: 0)
        switch decision {
        case .like: end = end.moved(dx: Self.distance, dy: 0)
        case .hate: end = end.moved(dx: -Self.distance, dy: 0)
        case .superlike: end.center.y = DeckGeometry.offscreenUpY
        }
        return Flight(end: end, motion: Motion(duration: Self.duration * (1 - progress(dx: dx)), curve: .easeOut))
    }

    public var springBack: Motion { Motion(duration: 0.2, curve: .easeInOut) }
}
