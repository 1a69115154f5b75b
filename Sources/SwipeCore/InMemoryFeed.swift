/// A feed over an array, for tests and previews. It behaves like the store's
/// feed: the profiles not decided (an undo makes one undecided again), not in
/// the deck, in array order.
public struct InMemoryFeed: ProfileFeed, Sendable {
    public private(set) var profiles: [Profile]
    /// Ids with a recorded, not undone decision.
    public private(set) var decided: Set<String> = []

    public init(_ profiles: [Profile]) {
        self.profiles = profiles
    }

    /// More profiles arrive (an import); `reload` shows them.
    public mutating func append(_ more: [Profile]) {
        profiles += more
    }

    /// The viewer decided `id` elsewhere (another session): it is not offered
    /// again, as the store's feed skips a decision it reads back.
    public mutating func decidedElsewhere(_ id: String) {
        decided.insert(id)
    }

    public func nextProfiles(limit: Int, excluding: Set<String>) -> [Profile] {
        Array(profiles.lazy.filter { !decided.contains($0.id) && !excluding.contains($0.id) }.prefix(limit))
    }

    public mutating func deckDidRecord(_ action: DeckAction) {
        switch action {
        case let .record(made): decided.insert(made.profile.id)
        case let .unrecord(made): decided.remove(made.profile.id)
        default: break
        }
    }
}
