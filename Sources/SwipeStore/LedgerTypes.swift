import SwipeCore

/// A decision as the ledger stored it, and what it did to matches.
public struct RecordedDecision: Hashable, Sendable {
    public var viewer: String
    public var profile: String
    public var decision: Decision
    public var via: Via
    /// The stored time, UTC ISO-8601 with milliseconds.
    public var decidedAt: String
    /// The match this decision made (the other side already liked the viewer),
    /// or nil.
    public var match: Match?
    /// The viewer hated someone whose like or superlike of them stands.
    public var missedMatch: Bool

    public init(
        viewer: String, profile: String, decision: Decision, via: Via, decidedAt: String, match: Match? = nil,
        missedMatch: Bool
    ) {
        self.viewer = viewer
        self.profile = profile
        self.decision = decision
        self.via = via
        self.decidedAt = decidedAt
        self.match = match
        self.missedMatch = missedMatch
    }
}

/// A mutual like between the viewer and `profile`.
public struct Match: Hashable, Sendable {
    /// The other person's external id.
    public var profile: String
    /// Their name (empty when the caller did not ask for it).
    public var name: String
    /// The later of the two decisions' times.
    public var matchedAt: String

    public init(profile: String, name: String, matchedAt: String) {
        self.profile = profile
        self.name = name
        self.matchedAt = matchedAt
    }
}

/// A decision taken back by `undo`.
public struct UndoneDecision: Hashable, Sendable {
    public var viewer: String
    public var profile: String
    public var decision: Decision
    public var via: Via
    public var decidedAt: String
    public var undoneAt: String
    /// The undo dissolved a match.
    public var unmatched: Bool

    public init(
        viewer: String, profile: String, decision: Decision, via: Via, decidedAt: String, undoneAt: String,
        unmatched: Bool
    ) {
        self.viewer = viewer
        self.profile = profile
        self.decision = decision
        self.via = via
        self.decidedAt = decidedAt
        self.undoneAt = undoneAt
        self.unmatched = unmatched
    }
}

/// One line of a viewer's history; undone decisions stay, with `undoneAt`.
public struct HistoryEntry: Hashable, Sendable {
    public var profile: String
    public var name: String
    public var decision: Decision
    public var via: Via
    public var decidedAt: String
    public var undoneAt: String?

    public init(profile: String, name: String, decision: Decision, via: Via, decidedAt: String, undoneAt: String? = nil)
    {
        self.profile = profile
        self.name = name
        self.decision = decision
        self.via = via
        self.decidedAt = decidedAt
        self.undoneAt = undoneAt
    }
}

/// Someone the viewer passed on although their like or superlike stands.
public struct MissedMatch: Hashable, Sendable {
    public var profile: String
    public var name: String
    public var theirDecision: Decision
    public var likedAt: String
    public var passedAt: String

    public init(profile: String, name: String, theirDecision: Decision, likedAt: String, passedAt: String) {
        self.profile = profile
        self.name = name
        self.theirDecision = theirDecision
        self.likedAt = likedAt
        self.passedAt = passedAt
    }
}

/// Filters for `SQLiteStore.history`.
public struct HistoryQuery: Hashable, Sendable {
    public var viewer: String
    public var decision: Decision?
    /// Only decisions at or after this stored-format time.
    public var since: String?
    /// At most this many, newest first.
    public var limit: Int?
    /// Only decisions about this profile (external id).
    public var profile: String?
    /// Only decisions at or before this stored-format time.
    public var until: String?

    public init(
        viewer: String, decision: Decision? = nil, since: String? = nil, limit: Int? = nil, profile: String? = nil,
        until: String? = nil
    ) {
        self.viewer = viewer
        self.decision = decision
        self.since = since
        self.limit = limit
        self.profile = profile
        self.until = until
    }
}
