/// An animation as data: a UI plays it, the REPL describes it, tests read it.
/// The deck has no clock; the driver reports the end with `animationFinished()`.
public struct Timeline: Hashable, Sendable {
    /// "fly-out", "spring-back", "button-like", "button-hate", "button-superlike",
    /// "fade-in" or "undo".
    public var name: String
    /// Seconds.
    public var duration: Double
    /// Time-ordered, first at 0, last at `duration`.
    public var keyframes: [Keyframe]

    public init(name: String, duration: Double, keyframes: [Keyframe]) {
        self.name = name
        self.duration = duration
        self.keyframes = keyframes
    }
}

/// The poses of all four slots at one moment of a timeline, in the deck's
/// state order while the timeline plays (the snapshot's order).
public struct Keyframe: Hashable, Sendable {
    /// Seconds from the start.
    public var time: Double
    public var cards: [CardView]
    /// How to interpolate INTO this keyframe (ignored for the first).
    public var curve: Curve

    public init(time: Double, cards: [CardView], curve: Curve) {
        self.time = time
        self.cards = cards
        self.curve = curve
    }
}

/// Interpolation between keyframes.
public enum Curve: Hashable, Sendable {
    case linear
    case easeInOut
    /// UIViewPropertyAnimator's `.easeOut` (seed 001's scrubbed animation).
    case easeOut
    /// A UIKit spring: `damping` is the damping ratio, `duration` in seconds.
    case spring(damping: Double, duration: Double)
}
