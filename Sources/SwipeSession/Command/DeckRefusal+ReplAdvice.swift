import SwipeCore

extension DeckRefusal {
    /// The refusal for a person at the REPL: what is wrong and which command
    /// gets them past it.
    public var replMessage: String {
        switch reason {
        case .animating, .queueFull: description + "; let it finish first"
        case .noCard: description + "; try reload"
        case .inDetail: description + "; go back first"
        case .noGesture: "nothing to release; drag first"
        case .gestureInProgress: description + "; release or cancel it first"
        case .notInDetail, .nothingToUndo, .invalidNumber: description
        }
    }
}
