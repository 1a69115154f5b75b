import SwipeCore
import SwipeStore

/// The REPL's ledger over the SQLite store, for one viewer.
public struct StoreLedger: ReplLedger {
    public let store: any SwipeDatabase
    public let viewer: String

    public init(store: any SwipeDatabase, viewer: String) {
        self.store = store
        self.viewer = viewer
    }

    public func record(_ decision: DeckDecision) throws -> LedgerReceipt {
        do {
            let stored = try store.record(
                viewer: viewer, profile: decision.profile.id, decision: decision.decision, via: decision.via)
            return LedgerReceipt(decidedAt: stored.decidedAt, isMatch: stored.match != nil)
        } catch let error as StoreError {
            switch error {
            case .alreadyDecided:
                throw DecidedElsewhere(String(describing: error), profileID: decision.profile.id)
            case .blocked:
                // Blocked, either way, in another session after this deck drew the card.
                throw DecidedElsewhere(String(describing: error), profileID: decision.profile.id)
            case .unknownProfile(decision.profile.id):
                throw DecidedElsewhere(
                    "\(decision.profile.id) is no longer in the database", profileID: decision.profile.id,
                    place: " (deleted by another program)")
            default:
                throw error
            }
        }
    }

    public func undo(_ decision: DeckDecision) throws {
        try store.undo(viewer: viewer, profile: decision.profile.id)
    }

    /// - Throws: `StoreError.unknownProfile` when `profile` names no profile
    ///   (a typo must not read as "no decisions yet").
    public func history(about profile: String?) throws -> [LedgerEntry] {
        let entries = try store.history(HistoryQuery(viewer: viewer, profile: profile)).map {
            LedgerEntry(profileID: $0.profile, name: $0.name, decision: $0.decision, via: $0.via,
                        decidedAt: $0.decidedAt, undoneAt: $0.undoneAt)
        }
        if let profile, entries.isEmpty, try !store.isProfile(profile) {
            throw StoreError.unknownProfile(profile)
        }
        return entries
    }

    public func matches() throws -> [LedgerMatch] {
        try store.matches(viewer: viewer).map { LedgerMatch(profileID: $0.profile, name: $0.name, matchedAt: $0.matchedAt) }
    }
}
