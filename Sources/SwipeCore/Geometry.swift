/// A point in the deck's virtual screen, in points (UIKit axes: y grows downwards).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The virtual geometry every preset is laid out in (README, "The deck model"): a 375 × 667
/// screen with the top card resting at the screen centre minus 60 in y, as in
/// TanTanDemo. Presets whose seed used another frame map onto this one (see
/// each preset's doc comment).
public enum DeckGeometry {
    public static let screenWidth = 375.0
    public static let screenHeight = 667.0
    public static let cardWidth = 350.0
    public static let cardHeight = 400.0
    /// Centre of the resting top card: (375/2, 667/2 − 60) = (187.5, 273.5).
    public static let restCenter = Point(x: screenWidth / 2, y: screenHeight / 2 - 60)
    /// Where an upward (superlike) fly-out ends: one card height above the top
    /// edge, so the whole card is off screen (its bottom edge is at −200).
    public static let offscreenUpY = -cardHeight
    /// Where a downward removal ends: one card height below the bottom edge.
    public static let offscreenDownY = screenHeight + cardHeight
}
