import SwipeSession
import SwipeStore

extension MatchNotice {
    /// `{"event":"match","profile":…,"name":…,"matched_at":…}`: `profile`
    /// is the other person, as in the `matches` list.
    public var json: String {
        JSONValue.object([
            ("event", "match"), ("profile", .string(liker)), ("name", .optional(likerName)),
            ("matched_at", .string(matchedAt)),
        ]).serialized
    }
}
