import SwipeCore
import SwipeStore

extension PostgresStore {
    /// `PostgresFeed` (Discovery/) on this store's connection, behind the
    /// store's session rule: a fetch after a lost connection reconnects first.
    /// The feed reads ahead (the next card's read rides with the deck's
    /// decision, `PGConnection+ReadAhead.swift`): this store's connection is
    /// its session's alone, as a REPL's is.
    public func feed(viewer: String) throws -> any ProfileFeed {
        try session {
            SessionFeed(store: self, base: try PostgresFeed(connection: connection, viewer: viewer, readsAhead: true))
        }
    }

    public func feed(viewer: String, memory: Ranking.FeedMemory) throws -> any ProfileFeed {
        try session {
            SessionFeed(
                store: self,
                base: try PostgresFeed(connection: connection, viewer: viewer, options: .init(memory: memory)))
        }
    }

    public func dealWithoutWriting(viewer: String, memory: Ranking.FeedMemory, limit: Int, excluding: Set<String>)
        throws -> [Profile]?
    {
        try session {
            try PostgresFeed(unchecked: connection, viewer: viewer, memory: memory)
                .nextProfilesWithoutWriting(limit: limit, excluding: excluding)
        }
    }

    public func countImpressions(viewer: String, memory: Ranking.FeedMemory) throws {
        try session { try PostgresFeed(unchecked: connection, viewer: viewer, memory: memory).countImpressions() }
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
