import SwipeCore
import SwipeStore

extension PostgresStore {
    /// `PostgresFeed` (Discovery/) on this store's connection, behind the
    /// store's session rule: a fetch after a lost connection reconnects first.
    public func feed(viewer: String) throws -> any ProfileFeed {
        try session { SessionFeed(store: self, base: try PostgresFeed(connection: connection, viewer: viewer)) }
    }

    public func feed(viewer: String, memory: Ranking.FeedMemory) throws -> any ProfileFeed {
        try session {
            SessionFeed(
                store: self,
                base: try PostgresFeed(connection: connection, viewer: viewer, options: .init(memory: memory)))
        }
    }

    public func eligible(viewer: String, among candidates: [String]) throws -> Set<String> {
        try session { try PostgresDiscovery.eligible(connection: connection, viewer: viewer, among: candidates) }
    }
}

/// A feed whose every fetch runs in the store's session (`PostgresStore.session`).
private struct SessionFeed: ProfileFeed {
    let store: PostgresStore
    var base: PostgresFeed

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        try store.session { try base.nextProfiles(limit: limit, excluding: excluding) }
    }

    mutating func deckDidRecord(_ action: DeckAction) { base.deckDidRecord(action) }
}
