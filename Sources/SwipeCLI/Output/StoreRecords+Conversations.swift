import SwipeSession
import SwipeStore

/// Columns and cells of `swipe messages`, `swipe send` and `swipe inbox`:
/// the names JSON mode and the socket use too.
extension StoreRecords {
    public static let messageColumns = ["seq", "sender", "recipient", "text", "client_id", "sent_at", "read_at"]

    public static func cells(_ message: Message) -> [Cell] {
        [
            .int(message.seq), .text(message.sender), .text(message.recipient), .text(message.text),
            .text(message.clientID), .text(message.sentAt), .optional(message.readAt),
        ]
    }

    public static let inboxColumns = [
        "profile", "name", "matched_at", "unread", "expired", "expires_at", "last_sender", "last_text", "last_sent_at",
    ]

    public static func cells(_ entry: ConversationSummary) -> [Cell] {
        [
            .text(entry.profile), .text(entry.name), .text(entry.matchedAt), .int(entry.unread),
            .text(entry.isExpired ? "true" : "false"), .optional(entry.expiresAt), .optional(entry.last?.sender),
            .optional(entry.last?.text), .optional(entry.last?.sentAt),
        ]
    }
}
