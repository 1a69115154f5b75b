import Foundation

/// One moderator's command, typed (Documentation/Moderation.md): what the
/// REPL's `moderate …`, a command object `{"cmd":"moderate",…}` and the
/// page's Moderation view ask for, and what `run(_:by:)` performs on any
/// backend. `swipe moderate` on the command line makes the same calls.
public enum ModerationCommand: Hashable, Sendable {
    case queue
    case show(item: String)
    case ban(id: String, reason: String, days: Int?)
    case unban(id: String)
    case warn(id: String, reason: String)
    case removePhoto(id: String, position: Int, reason: String)
    case resolve(item: String, note: String)
    case log
    case grant(id: String)
    case revoke(id: String)

    /// The action's word, as the log and the command object name it.
    public var action: String {
        switch self {
        case .queue: "queue"
        case .show: "show"
        case .ban: "ban"
        case .unban: "unban"
        case .warn: "warn"
        case .removePhoto: "remove-photo"
        case .resolve: "resolve"
        case .log: "log"
        case .grant: "grant"
        case .revoke: "revoke"
        }
    }

    /// Every action's word, in the order help lists them.
    public static let actions = [
        "queue", "show", "ban", "unban", "warn", "remove-photo", "resolve", "log", "grant", "revoke",
    ]

    /// The person whose sessions must hear of it at once (a ban closes
    /// their sockets), if any.
    public var suspends: String? {
        if case .ban(let id, _, _) = self { return id }
        return nil
    }
}

/// What a moderator's command answers.
public enum ModerationResult: Hashable, Sendable {
    case queue([QueueItem])
    case evidence(QueueEvidence)
    case log([ModerationLogEntry])
    /// An action done, in words (`p-3 is suspended until …: spam`).
    case done(String)
}

extension SwipeModerators {
    /// Performs `command` as `moderator` (nil: the operator).
    ///
    /// - Throws: the store's refusals (`StoreError.notModerator` first of all).
    public func run(_ command: ModerationCommand, by moderator: String?) throws -> ModerationResult {
        switch command {
        case .queue:
            return .queue(try moderationQueue(by: moderator))
        case .show(let item):
            return .evidence(try queueEvidence(item, by: moderator))
        case .log:
            if let moderator, try !isModerator(moderator) { throw StoreError.notModerator(moderator) }
            return .log(try moderationLog())
        case .ban(let id, let reason, let days):
            let banned = try ban(id, reason: reason, days: days, by: moderator, at: nil)
            return .done(
                "\(id) is suspended " + (banned.endsAt.map { "until \($0)" } ?? "for good") + ": \(banned.reason)")
        case .unban(let id):
            try unban(id, by: moderator, at: nil)
            return .done("\(id) is no longer suspended")
        case .warn(let id, let reason):
            try warn(id, reason: reason, by: moderator, at: nil)
            return .done("\(id) is warned: \(reason)")
        case .removePhoto(let id, let position, let reason):
            let left = try removePhoto(of: id, position: position, reason: reason, by: moderator, at: nil)
            return .done("removed photo \(position) of \(id); \(left.photos.count) left")
        case .resolve(let item, let note):
            try resolve(item, note: note, by: moderator, at: nil)
            return .done("resolved \(item)")
        case .grant(let id):
            try grantModerator(id, by: moderator, at: nil)
            return .done("\(id) is a moderator")
        case .revoke(let id):
            try revokeModerator(id, by: moderator, at: nil)
            return .done("\(id) is no longer a moderator")
        }
    }
}
