/// One of the viewer's current matches with how far its conversation went:
/// `swipe matches --with-messages` (Documentation/Insights.md).
public struct MatchActivity: Hashable, Sendable {
    /// The other person's external id.
    public var profile: String
    public var name: String
    /// The later of the two likes.
    public var matchedAt: String
    /// Messages in the conversation, both ways.
    public var messages: Int
    /// The newest message's time; nil before the first.
    public var lastMessageAt: String?

    public init(profile: String, name: String, matchedAt: String, messages: Int, lastMessageAt: String?) {
        self.profile = profile
        self.name = name
        self.matchedAt = matchedAt
        self.messages = messages
        self.lastMessageAt = lastMessageAt
    }
}
