import Foundation
import SwipeStore

/// What the REPL's conversation commands need from the store, for one
/// viewer (DESIGN §11). A protocol of its own, as `DiscoveryLedger` is, so a
/// ledger without conversations (a test's fake) needs nothing new: the
/// session refuses `chat`, `say` and `inbox` then.
public protocol ChatLedger {
    /// The viewer, to tell their messages from the other person's.
    var viewer: String { get }
    /// Sends `text` to `profile` under `clientID` (a retry with the same id
    /// returns the stored message).
    func send(to profile: String, text: String, clientID: String) throws -> SentMessage
    /// The last `last` messages with `profile` (all when nil), oldest first;
    /// what the viewer received is marked read.
    func read(with profile: String, last: Int?) throws -> [Message]
    func inbox() throws -> [ConversationSummary]
    /// The name of the profile with id `id`, nil when there is none.
    func name(of id: String) throws -> String?
    /// The ids of the viewer's matches (Tab completion for `chat` and `say`).
    func matchIDs() throws -> [String]
}

extension StoreLedger: ChatLedger {
    public func send(to profile: String, text: String, clientID: String) throws -> SentMessage {
        try store.send(MessageSend(viewer: viewer, profile: profile, text: text, clientID: clientID))
    }

    public func read(with profile: String, last: Int?) throws -> [Message] {
        try store.messages(MessageQuery(viewer: viewer, profile: profile, last: last))
    }

    public func inbox() throws -> [ConversationSummary] { try store.inbox(viewer: viewer) }

    public func name(of id: String) throws -> String? { try store.profile(id: id)?.name }

    public func matchIDs() throws -> [String] { try store.matches(viewer: viewer).map(\.profile) }
}
