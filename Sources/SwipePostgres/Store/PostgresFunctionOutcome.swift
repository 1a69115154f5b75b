import SwipeStore

/// What each of the server-side functions (schema.postgres.sql: `swipe_decide_2`,
/// `swipe_send_2`, `swipe_undo_1`) answers in its `outcome` column, as a
/// Swift value: every word the function text assigns (`outcome := '…'`) is
/// one case, and a switch over it is checked by the compiler, not matched
/// by hand against strings. `PostgresFunctionOutcomeTests` holds each enum
/// to the function text: a word added to a function without a case here
/// (or a case the function never says) fails that test, not a user.
protocol PostgresFunctionOutcome: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// The function's name in schema.postgres.sql, for the refusal of a word it has no case for.
    static var function: String { get }
    /// The table a failed call leaves unwritten, for `StoreError.notStored`.
    static var table: String { get }
}

extension PostgresFunctionOutcome {
    /// The outcome the function answered, or `StoreError.notStored` naming
    /// the word when this build has no case for it (a newer function text).
    init(answered word: String) throws {
        guard let outcome = Self(rawValue: word) else {
            throw StoreError.notStored(table: Self.table, what: "\(Self.function) answered \(word)")
        }
        self = outcome
    }
}

/// `swipe_decide_2`'s outcomes.
enum DecideOutcome: String, PostgresFunctionOutcome {
    static let function = "swipe_decide_2"
    static let table = "decisions"

    case unknownViewer = "unknown viewer"
    case unknownProfile = "unknown profile"
    case suspended
    case quota
    case isSelf = "self"
    case blocked
    case decided
    case notStored = "not stored"
    /// Stored; a like that made a match carries it.
    case recorded
    /// Stored: a hate of someone whose like of the viewer stands (a missed match).
    case missed
}

/// `swipe_send_2`'s outcomes.
enum SendOutcome: String, PostgresFunctionOutcome {
    static let function = "swipe_send_2"
    static let table = "messages"

    case unknownViewer = "unknown viewer"
    case unknownProfile = "unknown profile"
    case isSelf = "self"
    /// A retry of a message already stored under its client id.
    case stored
    case suspended
    case notMatched = "not matched"
    case ended
    case tooFast = "too fast"
    case expired
    case firstMove = "first move"
    case firstMessages = "first messages"
    /// The function hands the send back to the Swift rules (a case it does
    /// not decide itself, such as a deadline it cannot compare as text).
    case ask
    case sent
}

/// `swipe_undo_1`'s outcomes.
enum UndoOutcome: String, PostgresFunctionOutcome {
    static let function = "swipe_undo_1"
    static let table = "decisions"

    case unknownViewer = "unknown viewer"
    case unknownProfile = "unknown profile"
    case notDecided = "not decided"
    case rewind
    case undone
}
