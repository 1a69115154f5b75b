/// The default preset, TanTanDemo's macro version (README, "The deck model").
///
/// D = 100 (DROP_DISTANCE), S = 0.06 (TRANSFORM_SPACE), y-step m = 400·S − 5 = 19.
/// Resting card k (0, 1, 2; `other` looks like third): scale 1 − S·k, centre
/// y restY + m·k. While dragging, second and third move towards the card above
/// by `main`; `other` does not move. Release past |dx| > D (strict) flies out in
/// 0.3 s; anything else springs back (0.5 s, damping 0.5). Vertical drags never
/// decide.
public struct TanTanPhysics: CardPhysics {
    public static let dropDistance = 100.0
    public static let transformSpace = 0.06
    public static let yStep = DeckGeometry.cardHeight * transformSpace - 5

    public init() {}

    public var kind: PhysicsKind { .tantan }

    public func resting(_ state: CardState) -> CardPose {
        let k = Double(min(state.rank, 2))
        let rest = DeckGeometry.restCenter
        return CardPose(center: Point(x: rest.x, y: rest.y + Self.yStep * k), scale: 1 - Self.transformSpace * k)
    }

    public func dragged(dx: Double, dy: Double) -> DragFrame {
        let percentX = dx / Self.dropDistance
        let percentY = dy / Self.dropDistance
        var main = max(abs(percentX), abs(percentY))
        main = main < 0.15 ? 0 : main - 0.15
        main = min(main, 1)
        let rest = DeckGeometry.restCenter
        let centerX = rest.x + dx
        let top = CardPose(
            center: Point(x: centerX, y: rest.y + dy),
            rotation: (1 - centerX / (DeckGeometry.screenWidth / 2)) * .pi / 8)
        let below = [CardState.second, .third].map { state in
            var pose = resting(state)
            pose.scale += Self.transformSpace * main
            pose.center.y -= Self.yStep * main
            return pose
        }
        return DragFrame(
            poses: [top] + below + [resting(.other)],
            indicators: .horizontal(percentX: percentX, progress: main))
    }

    public func decision(releasedAt dx: Double, dy: Double) -> Decision? {
        guard abs(dx) > Self.dropDistance else { return nil }
        return dx > 0 ? .like : .hate
    }

    /// To (2W, restY) for like, (−W, restY) for hate, straight up for
    /// superlike; rotation 0, alpha 0, 0.3 s.
    public func flyOut(_ decision: Decision, dx: Double, dy: Double) -> Flight {
        let rest = DeckGeometry.restCenter
        let width = DeckGeometry.screenWidth
        let end =
            switch decision {
            case .like: Point(x: 2 * width, y: rest.y)
            case .hate: Point(x: -width, y: rest.y)
            case .superlike: Point(x: rest.x, y: DeckGeometry.offscreenUpY)
            }
        return Flight(end: CardPose(center: end, alpha: 0), motion: Motion(duration: 0.3, curve: .easeInOut))
    }

    public var springBack: Motion { Motion(duration: 0.5, curve: .spring(damping: 0.5, duration: 0.5)) }
}
