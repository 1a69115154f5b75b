/// One of the four slots as seen now.
public struct CardView: Hashable, Sendable {
    /// Physical slot 0...3; it stays with the card while its state changes, so
    /// recycling is visible through it.
    public var slot: Int
    public var state: CardState
    /// nil for a parked (empty) slot; a parked slot has alpha 0.
    public var profile: Profile?
    public var pose: CardPose

    public init(slot: Int, state: CardState, profile: Profile?, pose: CardPose) {
        self.slot = slot
        self.state = state
        self.profile = profile
        self.pose = pose
    }
}

/// The stamps on the top card and the bottom buttons' borders.
public struct Indicators: Hashable, Sendable {
    /// Stamp alphas, 0...1.
    public var like: Double
    public var hate: Double
    /// Bottom-button border widths in points, 0...5.
    public var likeBorder: Double
    public var hateBorder: Double
    /// Fraction of the fly-out done, 0...1.
    public var progress: Double

    public init(like: Double, hate: Double, likeBorder: Double, hateBorder: Double, progress: Double) {
        self.like = like
        self.hate = hate
        self.likeBorder = likeBorder
        self.hateBorder = hateBorder
        self.progress = progress
    }

    /// No stamp shown, both borders at their full 5 pt.
    public static let resting = Indicators(like: 0, hate: 0, likeBorder: 5, hateBorder: 5, progress: 0)

    /// TanTan's indicators for a horizontal fraction `percentX` (dx / distance):
    /// like = clamp(percentX, 0, 1), hate = clamp(−percentX, 0, 1), borders
    /// 5·(1 − stamp) (TanTan lets them go negative; we clamp).
    static func horizontal(percentX: Double, progress: Double) -> Indicators {
        let like = clamp(percentX, 0, 1)
        let hate = clamp(-percentX, 0, 1)
        return Indicators(
            like: like, hate: hate, likeBorder: 5 * (1 - like), hateBorder: 5 * (1 - hate),
            progress: progress)
    }
}

/// What the deck shows: the cards, the detail view of the top card, or the
/// empty state (no profile left; `reload` asks the feed again).
public enum DeckMode: Hashable, Sendable {
    case deck
    case detail(Profile)
    case empty
}

/// Everything a renderer needs, cards in state order (first, second, third, other).
///
/// While an animation runs, `cards` are the poses it ends at and
/// `isAnimating` is true.
public struct DeckSnapshot: Hashable, Sendable {
    public var mode: DeckMode
    public var cards: [CardView]
    public var indicators: Indicators
    public var physics: PhysicsKind
    public var isAnimating: Bool
    /// Current translation while a gesture is in progress.
    public var dragging: Point?

    public init(
        mode: DeckMode, cards: [CardView], indicators: Indicators, physics: PhysicsKind,
        isAnimating: Bool, dragging: Point?
    ) {
        self.mode = mode
        self.cards = cards
        self.indicators = indicators
        self.physics = physics
        self.isAnimating = isAnimating
        self.dragging = dragging
    }

    /// The top card's profile, if any.
    public var top: Profile? { cards.first?.profile }
}

func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
    min(max(value, low), high)
}
