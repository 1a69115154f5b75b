import SwipeSession
import SwipeStore

/// `moderate …` and `acknowledge` in the REPL's answer (Documentation/Moderation.md):
/// the same facts as text (`ModerationText`, which `swipe moderate show`
/// prints too) and as JSON members.
extension ReplAnswer {
    static func moderationLines(_ result: ModerationResult) -> [String] {
        switch result {
        case .done(let words):
            return ["→ " + TerminalText.sanitized(words)]
        case .queue(let items) where items.isEmpty:
            return ["the queue is empty: no open reports or flags"]
        case .queue(let items):
            return ["\(items.count) open in the queue, oldest first:"]
                + items.map { item in
                    TerminalText.sanitized(
                        "  \(item.item)  \(item.at)  \(item.profile)"
                            + (item.reporter.map { " reported by \($0)" } ?? " flagged") + ": \(item.reason)"
                            + " (open reports: \(item.reports)" + (item.flags.isEmpty ? "" : ", flagged")
                            + (item.suspended ? ", suspended" : "") + ")")
                } + ["(moderate show ITEM shows one with its evidence)"]
        case .evidence(let shown):
            return ModerationText.evidence(shown).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().map(String.init)
        case .log(let entries) where entries.isEmpty:
            return ["the moderation log is empty"]
        case .log(let entries):
            return entries.map {
                TerminalText.sanitized(
                    "  \($0.seq)  \($0.at)  \($0.moderator) \($0.action) \($0.target)"
                        + ($0.reason.isEmpty ? "" : ": \($0.reason)"))
            }
        }
    }
}
