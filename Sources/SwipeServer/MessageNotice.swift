import SwipeSession
import SwipeStore

/// A message just stored, to be pushed to its recipient's open sockets
/// (Documentation/REPL.md, "Conversations"): `{"event":"message","profile":…,"name":…,"seq":…,"text":…,"sent_at":…}`,
/// where `profile` and `name` are the sender's (the conversation, as the
/// recipient's inbox names it) and `seq` its place in the conversation, by
/// which a page orders what arrives. The sender's client id is not told.
public struct MessageNotice: Sendable {
    public var message: Message
    public var senderName: String

    public init(message: Message, senderName: String) {
        self.message = message
        self.senderName = senderName
    }

    public var json: String {
        JSONValue.object([
            ("event", "message"), ("profile", .string(message.sender)), ("name", .string(senderName)),
            ("seq", .number(Double(message.seq))), ("text", .string(message.text)),
            ("sent_at", .string(message.sentAt)),
        ]).serialized
    }
}
