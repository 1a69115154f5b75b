import SwipeCLI

/// A match made by `liker`'s decision, to be pushed to `recipient`.
public struct MatchNotice: Hashable, Sendable {
    /// The viewer to tell (the profile that was liked).
    public var recipient: String
    /// Who liked them back just now.
    public var liker: String
    public var likerName: String?
    /// When the match was made (the later decision's time, as stored).
    public var matchedAt: String

    public init(recipient: String, liker: String, likerName: String?, matchedAt: String) {
        self.recipient = recipient
        self.liker = liker
        self.likerName = likerName
        self.matchedAt = matchedAt
    }

    /// `{"event":"match","profile":…,"name":…,"matched_at":…}`: `profile`
    /// is the other person, as in the `matches` list.
    public var json: String {
        JSONValue.object([
            ("event", "match"), ("profile", .string(liker)), ("name", .optional(likerName)),
            ("matched_at", .string(matchedAt)),
        ]).serialized
    }
}
