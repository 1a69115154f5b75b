/// One input to the deck, as the REPL and the controller name it.
public enum DeckEvent: Hashable, Sendable, CustomStringConvertible {
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

    /// The REPL spelling, e.g. "drag 60 -10", "release 0 0", "like".
    public var description: String {
        switch self {
        case let .drag(dx, dy): "drag \(number(dx)) \(number(dy))"
        case let .release(vx, vy): "release \(number(vx)) \(number(vy))"
        case .cancel: "cancel"
        case let .button(decision): decision.rawValue
        case .open: "open"
        case .close: "back"
        case .undo: "undo"
        case .reload: "reload"
        case let .setPhysics(kind): "physics \(kind.rawValue)"
        case let .withdraw(id): "withdraw \(id)"
        case .animationFinished: "animation finished"
        }
    }
}

/// 60 rather than 60.0; other values as Swift prints them.
private func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
