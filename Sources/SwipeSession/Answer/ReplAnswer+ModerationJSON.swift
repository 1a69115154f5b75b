import SwipeCore
import SwipeStore

extension ReplAnswer {
    package static func moderationMembers(_ result: ModerationResult) -> [(String, JSONValue)] {
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

    package static func queueObject(_ item: QueueItem) -> JSONValue {
        .object([
            ("item", .string(item.item)), ("kind", .string(item.kind)), ("profile", .string(item.profile)),
            ("reporter", .optional(item.reporter)), ("reason", .string(item.reason)), ("at", .string(item.at)),
            ("reports", .number(Double(item.reports))), ("flags", .array(item.flags.map(JSONValue.string))),
            ("suspended", .bool(item.suspended)),
        ])
    }
}
