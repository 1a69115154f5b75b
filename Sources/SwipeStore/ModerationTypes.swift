import SwipeCore

/// What a block (or a report) did.
public struct BlockOutcome: Hashable, Sendable {
    /// A standing match between the two ended.
    public var endedMatch: Bool
    /// The block is new (a report of someone already blocked adds none).
    public var newBlock: Bool

    public init(endedMatch: Bool, newBlock: Bool) {
        self.endedMatch = endedMatch
        self.newBlock = newBlock
    }
}

/// A report, for moderators.
public struct Report: Hashable, Sendable {
    public var reporter: String
    public var reported: String
    public var reason: String
    public var reportedAt: String

    public init(reporter: String, reported: String, reason: String, reportedAt: String) {
        self.reporter = reporter
        self.reported = reported
        self.reason = reason
        self.reportedAt = reportedAt
    }
}

extension Report {
    /// How many of the pair's last messages a report keeps for moderators.
    public static let transcriptLength = 50
}

/// Someone holding a standing like or superlike of the viewer.
public struct Liker: Hashable, Sendable {
    public var profile: String
    public var name: String
    public var decision: Decision
    public var likedAt: String

    public init(profile: String, name: String, decision: Decision, likedAt: String) {
        self.profile = profile
        self.name = name
        self.decision = decision
        self.likedAt = likedAt
    }
}

/// Blocks, unmatch, reports and likes-you (README "Discovery").

/// A suspension (Documentation/Moderation.md): while it stands the person
/// cannot sign in, decide or send, is sent nothing, dealt to no one and
/// listed to no one.
public struct Suspension: Hashable, Sendable {
    public var profile: String
    public var reason: String
    public var bannedAt: String
    /// When it ends; nil: for good.
    public var endsAt: String?
    public var bannedBy: String

    public init(profile: String, reason: String, bannedAt: String, endsAt: String?, bannedBy: String) {
        self.profile = profile
        self.reason = reason
        self.bannedAt = bannedAt
        self.endsAt = endsAt
        self.bannedBy = bannedBy
    }
}

/// A moderator's warning, shown to the person at their next session until
/// they acknowledge it.
public struct ModeratorWarning: Hashable, Sendable {
    public var number: Int
    public var reason: String
    public var warnedAt: String

    public init(number: Int, reason: String, warnedAt: String) {
        self.number = number
        self.reason = reason
        self.warnedAt = warnedAt
    }
}

/// One entry of the moderators' queue: an open report, or a flag the store
/// raised by itself (the abuse limits), oldest first.
public struct QueueItem: Hashable, Sendable {
    /// How `show` and `resolve` name it: a report's number (`12`), or a
    /// flag's (`flag-3`).
    public var item: String
    /// `report` or `flag`.
    public var kind: String
    /// The person it is about.
    public var profile: String
    /// Who reported; nil for a flag.
    public var reporter: String?
    /// The report's reason, or what the flag saw.
    public var reason: String
    public var at: String
    /// Open reports about `profile`, this one included.
    public var reports: Int
    /// The open flags about `profile`, in words (`copied a first message to 6 people`).
    public var flags: [String]
    /// Whether `profile` is suspended now.
    public var suspended: Bool

    public init(
        item: String, kind: String, profile: String, reporter: String?, reason: String, at: String, reports: Int,
        flags: [String], suspended: Bool
    ) {
        self.item = item
        self.kind = kind
        self.profile = profile
        self.reporter = reporter
        self.reason = reason
        self.at = at
        self.reports = reports
        self.flags = flags
        self.suspended = suspended
    }
}

/// A queue item with its evidence (`moderate show`): for a report, what the
/// reported person showed and the pair's last messages as they were when it
/// was made; how it was resolved, if it was.
public struct QueueEvidence: Hashable, Sendable {
    public var item: QueueItem
    public var name: String?
    public var bio: String?
    public var photos: [String]
    public var messages: [Message]
    /// When, by whom and with what note it was resolved; nil while open.
    public var resolvedAt: String?
    public var resolvedBy: String?
    public var note: String?

    public init(item: QueueItem, name: String?, bio: String?, photos: [String], messages: [Message]) {
        self.item = item
        self.name = name
        self.bio = bio
        self.photos = photos
        self.messages = messages
    }
}

/// One line of the moderation log: who did what to whom, when and why.
public struct ModerationLogEntry: Hashable, Sendable {
    public var seq: Int
    public var at: String
    /// A moderator's id, or `operator` (whoever could open the database).
    public var moderator: String
    /// grant, revoke, ban, unban, warn, remove-photo or resolve.
    public var action: String
    public var target: String
    public var reason: String

    public init(seq: Int, at: String, moderator: String, action: String, target: String, reason: String) {
        self.seq = seq
        self.at = at
        self.moderator = moderator
        self.action = action
        self.target = target
        self.reason = reason
    }
}

extension ModerationLogEntry {
    /// How the log names whoever could open the database.
    public static let operatorName = "operator"
}
