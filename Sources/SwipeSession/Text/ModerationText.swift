import SwipeStore

/// The moderators' views in words (Documentation/Moderation.md): the same
/// text on the command line (`swipe moderate show`) and in the REPL.
public enum ModerationText {
    /// A queue item with its evidence, one fact per line.
    public static func evidence(_ shown: QueueEvidence) -> String {
        let item = shown.item
        var lines = [
            item.kind == "report"
                ? "report \(item.item): \(item.reporter ?? "?") reported \(item.profile) at \(item.at)"
                : "\(item.item): the store flagged \(item.profile) at \(item.at)",
            "  reason: \(item.reason)",
            "  open reports about \(item.profile): \(item.reports)"
                + (item.flags.isEmpty ? "" : "; flags: " + item.flags.joined(separator: "; "))
                + (item.suspended ? "; suspended now" : ""),
        ]
        if let resolvedAt = shown.resolvedAt {
            lines.append("  resolved at \(resolvedAt) by \(shown.resolvedBy ?? "?"): \(shown.note ?? "")")
        } else {
            lines.append("  open")
        }
        if let name = shown.name { lines.append("  name: \(name)") }
        if let bio = shown.bio { lines.append("  bio: \(bio)") }
        for (index, photo) in shown.photos.enumerated() { lines.append("  photo \(index + 1): \(photo)") }
        if item.kind == "report" {
            lines.append(
                shown.messages.isEmpty
                    ? "  no messages between them"
                    : "  their last \(shown.messages.count) message" + (shown.messages.count == 1 ? ":" : "s:"))
        }
        for message in shown.messages {
            lines.append("  \(message.sentAt) \(message.sender): \(message.text)")
        }
        return lines.map { TerminalText.sanitized($0) }.joined(separator: "\n") + "\n"
    }

    /// A suspension as the person is told it.
    public static func suspended(reason: String, until: String?) -> String {
        "your account is suspended " + (until.map { "until \($0)" } ?? "for good") + ": \(reason)"
    }

    /// Warnings as the person is told them at the start of a session.
    public static func warnings(_ warnings: [ModeratorWarning]) -> String {
        warnings.map { "a moderator warned you at \($0.warnedAt): \($0.reason)" }.joined(separator: "\n")
            + "\n(type `acknowledge` to say you have read " + (warnings.count == 1 ? "it)" : "them)")
    }
}
