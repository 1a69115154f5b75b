/// Where the deck gets its cards: seed 003's data source ("how many", "card
/// at", "empty"), reduced to the one question a recycled deck asks.
///
/// SwipeStore provides the SQLite feed; tests and previews use
/// `InMemoryFeed`. A feed may do I/O (hence `throws`); the deck itself never
/// does.
public protocol ProfileFeed {
    /// Up to `limit` profiles the viewer has not decided, in the feed's stable
    /// order, skipping every id in `excluding` (the cards already in the deck).
    /// Fewer than `limit` (or none) means the feed is running dry.
    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile]

    /// `DeckController` reports each `record` / `unrecord` here after its
    /// recorder ran. A feed that reads decisions back from a store needs
    /// nothing (the default does nothing); `InMemoryFeed` keeps its own.
    mutating func deckDidRecord(_ action: DeckAction)
}

extension ProfileFeed {
    public mutating func deckDidRecord(_ action: DeckAction) {}
}

/// Any feed as one concrete type, for a deck whose feed is chosen at run
/// time (the database's backend decides which feed it hands out).
public struct AnyProfileFeed: ProfileFeed {
    public var base: any ProfileFeed

    public init(_ base: any ProfileFeed) { self.base = base }

    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        try base.nextProfiles(limit: limit, excluding: excluding)
    }

    public mutating func deckDidRecord(_ action: DeckAction) { base.deckDidRecord(action) }
}
