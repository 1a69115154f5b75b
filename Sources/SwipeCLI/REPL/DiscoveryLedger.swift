import SwipeStore
import SwipeCore

/// What the REPL's discovery commands need from the store, for one viewer.
/// A separate protocol from `ReplLedger`, so a ledger without discovery (a
/// test's fake) needs nothing new: the session refuses these commands then.
public protocol DiscoveryLedger {
    /// The viewer's profile, preferences included.
    func viewerProfile() throws -> Profile
    func setPreferences(_ change: PreferencesChange) throws -> Profile
    /// Which of these ids the viewer may still be shown (the cards in the deck).
    func eligible(among ids: [String]) throws -> Set<String>
    func block(_ id: String) throws -> BlockOutcome
    func unblock(_ id: String) throws
    func unmatch(_ id: String) throws
    func report(_ id: String, reason: String) throws -> BlockOutcome
    func likes() throws -> [Liker]
}

extension StoreLedger: DiscoveryLedger {
    public func viewerProfile() throws -> Profile {
        guard let profile = try store.profile(id: viewer) else { throw StoreError.unknownProfile(viewer) }
        return profile
    }

    public func setPreferences(_ change: PreferencesChange) throws -> Profile {
        try store.setPreferences(viewer: viewer, change)
    }

    public func eligible(among ids: [String]) throws -> Set<String> { try store.eligible(viewer: viewer, among: ids) }
    public func block(_ id: String) throws -> BlockOutcome { try store.block(viewer: viewer, profile: id) }
    public func unblock(_ id: String) throws { try store.unblock(viewer: viewer, profile: id) }
    public func unmatch(_ id: String) throws { try store.unmatch(viewer: viewer, profile: id) }

    public func report(_ id: String, reason: String) throws -> BlockOutcome {
        try store.report(viewer: viewer, profile: id, reason: reason)
    }

    public func likes() throws -> [Liker] { try store.likes(viewer: viewer) }
}
