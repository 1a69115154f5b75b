import SwipeCore

extension DeckEvent {
    /// The event as a person types it at the REPL, e.g. "drag 60 -10",
    /// "release 0 0", "like", "back": what a queued or refused line names.
    public var replSpelling: String {
        switch self {
        case let .drag(dx, dy): "drag \(Self.number(dx)) \(Self.number(dy))"
        case let .release(vx, vy): "release \(Self.number(vx)) \(Self.number(vy))"
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

    /// 60 rather than 60.0; other values as Swift prints them.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
