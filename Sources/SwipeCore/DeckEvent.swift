/// One input to the deck, as a driver (a UI, the REPL, a test) sends it to
/// `Deck.apply` or `DeckController.handle`.
public enum DeckEvent: Hashable, Sendable {
    case drag(dx: Double, dy: Double)
    case release(vx: Double, vy: Double)
    case cancel
    case button(Decision)
    case open
    case close
    case undo
    case reload
    case setPhysics(PhysicsKind)
    /// The profile with this id was decided elsewhere and leaves the deck
    /// without a decision (addition: for a store that refused one).
    case withdraw(String)
    /// The running animation ended (addition: lets a controller that does not
    /// settle immediately be told so).
    case animationFinished
}
