/// Why an event was not applied. The deck's state is unchanged.
///
/// `description` says what is wrong in the deck's own terms; a driver words
/// what to do about it in its own (the REPL names its commands).
public struct DeckRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// An animation is running and the event cannot wait for it (a physics change).
        case animating
        /// An animation is running and `Deck.queueLimit` inputs already wait for it.
        case queueFull
        /// No profile on top (empty deck).
        case noCard
        /// The detail view is open; gestures, undo and reload wait for `close`.
        case inDetail
        /// `close` without a detail view open.
        case notInDetail
        /// `release` without a drag.
        case noGesture
        /// A drag is in progress; it must be released or cancelled first.
        case gestureInProgress
        /// No decision left to take back.
        case nothingToUndo
        /// NaN, an infinity or a magnitude above `DeckEvent.magnitudeLimit`.
        case invalidNumber
    }

    public var reason: Reason
    public var description: String

    public init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }
}

extension DeckEvent {
    /// Largest magnitude accepted for a translation (points) or a velocity
    /// (points per second): far past every threshold, small enough that every
    /// derived number stays finite and exact enough to draw.
    public static let magnitudeLimit = 1e6
}

extension DeckRefusal {
    /// Refuses `value` named `name` unless it is finite and within ±`DeckEvent.magnitudeLimit`.
    static func check(_ value: Double, _ name: String) throws(DeckRefusal) {
        let limit = DeckEvent.magnitudeLimit
        guard value.isFinite, abs(value) <= limit else {
            throw DeckRefusal(
                reason: .invalidNumber,
                description: "\(name) must be a finite number between \(Int(-limit)) and \(Int(limit)), not \(value)")
        }
    }

    static let queueFull = DeckRefusal(
        reason: .queueFull, description: "an animation is running and \(Deck.queueLimit) inputs are already waiting")
    static let physicsWhileBusy = DeckRefusal(
        reason: .animating, description: "cannot change physics while a card is animating")
    static let noCard = DeckRefusal(reason: .noCard, description: "no card on the deck")
    static let inDetail = DeckRefusal(reason: .inDetail, description: "the detail view is open")
    static let notInDetail = DeckRefusal(reason: .notInDetail, description: "no detail view is open")
    static let noGesture = DeckRefusal(reason: .noGesture, description: "nothing to release: no drag in progress")
    static let gestureInProgress = DeckRefusal(reason: .gestureInProgress, description: "a drag is in progress")
    static let nothingToUndo = DeckRefusal(reason: .nothingToUndo, description: "nothing to undo")
}
