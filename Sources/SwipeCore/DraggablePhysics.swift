/// DraggableView (seed 000).
///
/// Screen mapping: the seed's cards fill their parent view and lie exactly on
/// top of each other, so every state rests at the top-card centre (187.5, 273.5)
/// with scale 1, and the card is DeckGeometry's 350 × 400 (the removal
/// thresholds are cardWidth/2 = 175 and cardHeight = 400).
///
/// strength = clamp(dx/320, −1, 1); rotation = 2π/16·strength;
/// scale = max(1 − |strength|/4, 0.93). Release removes the card if |dx| > 175
/// (like/hate by the sign of dx) or, failing that, |dy| > 400 (up = superlike,
/// down = hate); otherwise it resets over 0.2 s. The seed removes a dragged card
/// at once; here it fades out over 0.3 s towards x = ±W (or off the top/bottom
/// edge) so a UI has something to play. Buttons fly to x = ±W over 0.8 s with
/// rotation 0 (superlike: straight up).
public struct DraggablePhysics: CardPhysics {
    public static let rotationDistance = 320.0
    public static let minimumScale = 0.93
    public static let horizontalLimit = DeckGeometry.cardWidth / 2
    public static let verticalLimit = DeckGeometry.cardHeight

    public init() {}

    public var kind: PhysicsKind { .draggable }

    public func resting(_ state: CardState) -> CardPose {
        CardPose(center: DeckGeometry.restCenter)
    }

    public func dragged(dx: Double, dy: Double) -> DragFrame {
        let strength = clamp(dx / Self.rotationDistance, -1, 1)
        let top = CardPose(
            center: DeckGeometry.restCenter, scale: max(1 - abs(strength) / 4, Self.minimumScale),
            rotation: 2 * .pi / 16 * strength
        ).moved(dx: dx, dy: dy)
        let progress = min(max(abs(dx) / Self.horizontalLimit, abs(dy) / Self.verticalLimit), 1)
        return DragFrame(
            poses: [top] + [CardState.second, .third, .other].map(resting),
            indicators: .horizontal(percentX: dx / Self.horizontalLimit, progress: progress))
    }

    public func decision(releasedAt dx: Double, dy: Double) -> Decision? {
        if abs(dx) > Self.horizontalLimit { return dx > 0 ? .like : .hate }
        if abs(dy) > Self.verticalLimit { return dy < 0 ? .superlike : .hate }
        return nil
    }

    public func flyOut(_ decision: Decision, dx: Double, dy: Double) -> Flight {
        var end = dragged(dx: dx, dy: dy).poses[0]
        let width = DeckGeometry.screenWidth
        let vertical = abs(dx) <= Self.horizontalLimit && abs(dy) > Self.verticalLimit
        switch decision {
        case .superlike: end.center.y = DeckGeometry.offscreenUpY
        case .hate where vertical: end.center.y = DeckGeometry.offscreenDownY
        case .like: end.center.x = width
        case .hate: end.center.x = -width
        }
        end.alpha = 0
        return Flight(end: end, motion: Motion(duration: 0.3, curve: .easeInOut))
    }

    public var springBack: Motion { Motion(duration: 0.2, curve: .easeInOut) }

    public func buttonSteps(_ decision: Decision) -> [ButtonStep] {
        let rest = resting(.first)
        var fly = rest
        switch decision {
        case .like: fly.center.x = DeckGeometry.screenWidth
        case .hate: fly.center.x = -DeckGeometry.screenWidth
        case .superlike: fly.center.y = DeckGeometry.offscreenUpY
        }
        return [ButtonStep(time: 0, pose: rest, curve: .linear), ButtonStep(time: 0.8, pose: fly, curve: .easeInOut)]
    }
}
