import SwipeCore

/// What the REPL needs from the store, for one viewer: record and undo
/// decisions, read the history and the matches. SwipeStore's ledger conforms
/// in the executable's wiring; tests use an in-memory fake. Methods throw the
/// store's own errors, which the session prints without ending, except that
/// `record` throws `DecidedElsewhere` when the viewer already decided the profile.
public protocol ReplLedger {
    /// Stores `decision` (viewer: the ledger's) and says when, and whether it made a match.
    func record(_ decision: DeckDecision) throws -> LedgerReceipt
    /// Stamps the viewer's latest un-undone decision about `decision.profile` as undone.
    func undo(_ decision: DeckDecision) throws
    /// The viewer's decisions, newest first; only about `profile` when given.
    func history(about profile: String?) throws -> [LedgerEntry]
    /// The viewer's current matches, newest first.
    func matches() throws -> [LedgerMatch]
}

/// The refusal a ledger throws when the viewer already holds a decision on
/// the profile: another session (or a decisions import) decided it after
/// this deck drew the card. The session answers it by withdrawing the card.
///
/// It is also thrown when the profile is gone from the database (deleted by
/// another program while its card was on the deck): the card leaves the
/// same way, and the session goes on.
public struct DecidedElsewhere: Error, CustomStringConvertible {
    /// What happened, as the store says it.
    public var description: String
    /// The profile the viewer had already decided (or that is gone).
    public var profileID: String
    /// Where it happened, as the session's message says it after `description`.
    public var place: String

    public init(_ description: String, profileID: String, place: String = " (in another session)") {
        self.description = description
        self.profileID = profileID
        self.place = place
    }
}

/// A decision as stored.
public struct LedgerReceipt: Hashable, Sendable {
    /// UTC ISO-8601 with milliseconds, as stored (`2026-11-20T23:55:01.123Z`).
    public var decidedAt: String
    /// Whether this decision completed a mutual like.
    public var isMatch: Bool

    public init(decidedAt: String, isMatch: Bool) {
        self.decidedAt = decidedAt
        self.isMatch = isMatch
    }
}

/// One row of the viewer's history.
public struct LedgerEntry: Hashable, Sendable {
    public var profileID: String
    public var name: String?
    public var decision: Decision
    public var via: Via
    public var decidedAt: String
    public var undoneAt: String?

    public init(profileID: String, name: String?, decision: Decision, via: Via, decidedAt: String, undoneAt: String?) {
        self.profileID = profileID
        self.name = name
        self.decision = decision
        self.via = via
        self.decidedAt = decidedAt
        self.undoneAt = undoneAt
    }
}

/// Someone the viewer liked who liked them back.
public struct LedgerMatch: Hashable, Sendable {
    public var profileID: String
    public var name: String?
    public var matchedAt: String

    public init(profileID: String, name: String?, matchedAt: String) {
        self.profileID = profileID
        self.name = name
        self.matchedAt = matchedAt
    }
}
