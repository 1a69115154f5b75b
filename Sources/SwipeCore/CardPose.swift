/// A card's appearance. `rotation` in radians, UIKit convention (positive =
/// clockwise); `scale` is relative to the preset's card size.
public struct CardPose: Hashable, Sendable {
    public var center: Point
    public var scale: Double
    public var rotation: Double
    public var alpha: Double

    public init(center: Point, scale: Double = 1, rotation: Double = 0, alpha: Double = 1) {
        self.center = center
        self.scale = scale
        self.rotation = rotation
        self.alpha = alpha
    }

    /// `rotation` in degrees, as the REPL and JSON show it.
    public var rotationDegrees: Double { rotation * 180 / .pi }

    /// Whether every number in the pose is finite (a pose a renderer can draw).
    public var isFinite: Bool {
        center.x.isFinite && center.y.isFinite && scale.isFinite && rotation.isFinite && alpha.isFinite
    }

    /// The same pose moved by (dx, dy).
    func moved(dx: Double, dy: Double) -> CardPose {
        var pose = self
        pose.center = Point(x: center.x + dx, y: center.y + dy)
        return pose
    }

    /// The same pose with another alpha.
    func with(alpha: Double) -> CardPose {
        var pose = self
        pose.alpha = alpha
        return pose
    }
}
