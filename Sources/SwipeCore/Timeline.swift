/// An animation as data: a UI plays it, the REPL describes it, tests read it.
/// The deck has no clock; the driver reports the end with `animationFinished()`.
public struct Timeline: Hashable, Sendable {
    /// What the animation does.
    public enum Kind: Hashable, Sendable {
        /// A released card leaves (it was dragged past the threshold or flicked).
        case flyOut
        /// Every card returns to rest after a release that decided nothing.
        case springBack
        /// A bottom button's recoil, return and fly-out.
        case button(Decision)
        /// Refilled slots appear where they rest.
        case fadeIn
        /// The last decided card comes back on top.
        case undo

        /// Whether the top card leaves at the end: its slot goes to the back
        /// and is refilled.
        public var removesTopCard: Bool {
            switch self {
            case .flyOut, .button: true
            case .springBack, .fadeIn, .undo: false
            }
        }

        /// A stable name for logs and JSON: "fly-out", "spring-back",
        /// "button-like", "button-hate", "button-superlike", "fade-in", "undo".
        public var name: String {
            switch self {
            case .flyOut: "fly-out"
            case .springBack: "spring-back"
            case let .button(decision): "button-" + decision.rawValue
            case .fadeIn: "fade-in"
            case .undo: "undo"
            }
        }
    }

    public var kind: Kind
    /// Seconds.
    public var duration: Double
    /// Time-ordered, first at 0, last at `duration`.
    public var keyframes: [Keyframe]

    public init(kind: Kind, duration: Double, keyframes: [Keyframe]) {
        self.kind = kind
        self.duration = duration
        self.keyframes = keyframes
    }

    /// The kind's name ("fly-out", "button-like", …).
    public var name: String { kind.name }
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
