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

    static func moderationMembers(_ result: ModerationResult) -> [(String, JSONValue)] {
        switch result {
        case .done(let words):
            return [("message", .string(words))]
        case .queue(let items):
            return [("queue", .array(items.map(queueObject)))]
        case .evidence(let shown):
            return [
                (
                    "evidence",
                    .object(
                        [
                            ("item", queueObject(shown.item)), ("name", .optional(shown.name)),
                            ("bio", .optional(shown.bio)), ("photos", .array(shown.photos.map(JSONValue.string))),
                            (
                                "messages",
                                .array(
                                    shown.messages.map {
                                        .object([
                                            ("seq", .number(Double($0.seq))), ("sender", .string($0.sender)),
                                            ("text", .string($0.text)), ("sent_at", .string($0.sentAt)),
                                        ])
                                    })
                            ),
                            ("resolved_at", .optional(shown.resolvedAt)), ("resolved_by", .optional(shown.resolvedBy)),
                            ("note", .optional(shown.note)),
                        ])
                )
            ]
        case .log(let entries):
            return [
                (
                    "log",
                    .array(
                        entries.map {
                            .object([
                                ("seq", .number(Double($0.seq))), ("at", .string($0.at)),
                                ("moderator", .string($0.moderator)), ("action", .string($0.action)),
                                ("target", .string($0.target)), ("reason", .string($0.reason)),
                            ])
                        })
                )
            ]
        }
    }

    static func queueObject(_ item: QueueItem) -> JSONValue {
        .object([
            ("item", .string(item.item)), ("kind", .string(item.kind)), ("profile", .string(item.profile)),
            ("reporter", .optional(item.reporter)), ("reason", .string(item.reason)), ("at", .string(item.at)),
            ("reports", .number(Double(item.reports))), ("flags", .array(item.flags.map(JSONValue.string))),
            ("suspended", .bool(item.suspended)),
        ])
    }
}
