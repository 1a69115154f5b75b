import Foundation

/// SwipeCardContainer (seed 003).
///
/// Screen mapping: the seed's 300 × 400 container is centred in x and 60 pt
/// above the screen centre, i.e. centred on the top-card rest (187.5, 273.5);
/// its origin is (37.5, 73.5) and container x = screen x − 37.5. Card i
/// (i = 0, 1, 2) is inset i·10 on each side and pushed i·10 down, keeping its
/// height: centre (187.5, 273.5 + 10·i), width 300 − 20·i. `scale` is that width
/// ratio (300 − 20·i)/300 relative to the 300-pt card (the seed does not shrink
/// the height). Only three cards are visible: `other` waits hidden (alpha 0)
/// behind the third.
///
/// Drag: centre = rest + (dx, dy), rotation = tan(dx / (2·300)). Release: like
/// if the container-space centre 150 + dx > 400 (dx > 250), hate if
/// 150 + dx < −65 (dx < −215) — the seed's asymmetric thresholds — flying by
/// (±200, +75) to alpha 0 over 0.2 s; otherwise reset over 0.2 s.
/// Indicators: like = clamp(dx/250, 0, 1), hate = clamp(−dx/215, 0, 1).
public struct StackPhysics: CardPhysics {
    public static let containerWidth = 300.0
    public static let inset = 10.0
    public static let likeCenterX = 400.0
    public static let hateCenterX = -65.0

    public init() {}

    public var kind: PhysicsKind { .stack }

    public func resting(_ state: CardState) -> CardPose {
        let i = Double(min(state.rank, 2))
        let rest = DeckGeometry.restCenter
        return CardPose(
            center: Point(x: rest.x, y: rest.y + Self.inset * i),
            scale: (Self.containerWidth - 2 * Self.inset * i) / Self.containerWidth,
            alpha: state == .other ? 0 : 1)
    }

    public func dragged(dx: Double, dy: Double) -> DragFrame {
        let top = CardPose(center: DeckGeometry.restCenter, rotation: tan(dx / (2 * Self.containerWidth)))
            .moved(dx: dx, dy: dy)
        let like = clamp(dx / (Self.likeCenterX - Self.containerWidth / 2), 0, 1)
        let hate = clamp(-dx / (Self.containerWidth / 2 - Self.hateCenterX), 0, 1)
        let indicators = Indicators(
            like: like, hate: hate, likeBorder: 5 * (1 - like), hateBorder: 5 * (1 - hate),
            progress: max(like, hate))
        return DragFrame(poses: [top] + [CardState.second, .third, .other].map(resting), indicators: indicators)
    }

    public func decision(releasedAt dx: Double, dy: Double) -> Decision? {
        let centerX = Self.containerWidth / 2 + dx
        if centerX > Self.likeCenterX { return .like }
        if centerX < Self.hateCenterX { return .hate }
        return nil
    }

    /// By (+200, +75) for like, (−200, +75) for hate (the seed), straight up
    /// for superlike; alpha 0, 0.2 s.
    public func flyOut(_ decision: Decision, dx: Double, dy: Double) -> Flight {
        var end = dragged(dx: dx, dy: dy).poses[0]
        switch decision {
        case .like: end = end.moved(dx: 200, dy: 75)
        case .hate: end = end.moved(dx: -200, dy: 75)
        case .superlike: end.center.y = DeckGeometry.offscreenUpY
        }
        end.alpha = 0
        return Flight(end: end, motion: Motion(duration: 0.2, curve: .easeInOut))
    }

    public var springBack: Motion { Motion(duration: 0.2, curve: .easeInOut) }
}
