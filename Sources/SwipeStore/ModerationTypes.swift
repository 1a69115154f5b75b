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
