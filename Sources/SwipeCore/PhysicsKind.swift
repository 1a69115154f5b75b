/// The selectable presets (`--physics`), each reproducing its seed.
public enum PhysicsKind: String, CaseIterable, Sendable {
    /// Default: TanTanDemo (seed 002).
    case tantan
    /// DraggableView (seed 000).
    case draggable
    /// SwipeCardContainer (seed 003).
    case stack
    /// A scrubbed UIViewPropertyAnimator (seed 001).
    case scrub

    /// The preset's physics.
    public var preset: any CardPhysics {
        switch self {
        case .tantan: TanTanPhysics()
        case .draggable: DraggablePhysics()
        case .stack: StackPhysics()
        case .scrub: ScrubPhysics()
        }
    }
}
