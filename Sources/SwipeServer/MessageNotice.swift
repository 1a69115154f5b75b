import SwipeSession
import SwipeStore

/// A message just stored, to be pushed to its recipient's open sockets
/// (Documentation/REPL.md, "Conversations"): `{"event":"message","profile":…,"name":…,"seq":…,"text":…,"sent_at":…}`,
/// where `profile` and `name` are the sender's (the conversation, as the
/// recipient's inbox names it) and `seq` its place in the conversation, by
/// which a page orders what arrives. The sender's client id is not told.
///
/// The sender's own open pages hear it too (`senderJSON`): a message sent
/// from their other tab, `swipe send` or a REPL shows in their open chat.
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

    /// What the sender's own sockets are told: the same event for the
    /// conversation as their inbox names it (`profile` is the recipient),
    /// `mine`, and their own client id, by which the page that sent it
    /// knows its pending line is this one.
    public var senderJSON: String {
        JSONValue.object([
            ("event", "message"), ("profile", .string(message.recipient)), ("mine", true),
            ("seq", .number(Double(message.seq))), ("text", .string(message.text)),
            ("sent_at", .string(message.sentAt)), ("client_id", .string(message.clientID)),
        ]).serialized
    }
}
