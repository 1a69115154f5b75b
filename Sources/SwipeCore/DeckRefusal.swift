/// Why an event was not applied. The deck's state is unchanged. `description`
/// is for people and says what to do instead.
public struct DeckRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// An animation is running and the queue of waiting input is full
        /// (or the event cannot wait, like a physics change).
        case animating
        /// No profile on top (empty deck).
        case noCard
        /// The detail view is open; gestures, undo and reload wait for `back`.
        case inDetail
        /// `back` without a detail view open.
        case notInDetail
        /// `release` without a drag.
        case noGesture
        /// A drag is in progress; release or cancel it first.
        case gestureInProgress
        /// No decision left to take back.
        case nothingToUndo
        /// NaN, an infinity or a magnitude above 1e6.
        case invalidNumber
    }

    public var reason: Reason
    public var description: String

    public init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }
}

extension DeckRefusal {
    /// Largest magnitude accepted for a translation or velocity.
    static let absurdMagnitude = 1e6

    /// Refuses `value` named `name` unless it is finite and |value| ≤ 1e6.
    static func check(_ value: Double, _ name: String) throws(DeckRefusal) {
        guard value.isFinite, abs(value) <= absurdMagnitude else {
            throw DeckRefusal(reason: .invalidNumber,
                              description: "\(name) must be a finite number between -1000000 and 1000000, not \(value)")
        }
    }

    static let queueFull = DeckRefusal(
        reason: .animating,
        description: "an animation is running and \(Deck.queueLimit) inputs are already waiting; let it finish first")
    static let physicsWhileBusy = DeckRefusal(
        reason: .animating, description: "cannot change physics while a card is animating; let it finish first")
    static let noCard = DeckRefusal(reason: .noCard, description: "no card on the deck; try reload")
    static let inDetail = DeckRefusal(reason: .inDetail, description: "the detail view is open; go back first")
    static let notInDetail = DeckRefusal(reason: .notInDetail, description: "no detail view is open")
    static let noGesture = DeckRefusal(reason: .noGesture, description: "nothing to release; drag first")
    static let gestureInProgress = DeckRefusal(
        reason: .gestureInProgress, description: "a drag is in progress; release or cancel it first")
    static let nothingToUndo = DeckRefusal(reason: .nothingToUndo, description: "nothing to undo")
}
