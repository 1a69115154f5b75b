import Foundation

/// One message of a conversation, as stored (Documentation/REPL.md, "Conversations").
public struct Message: Hashable, Sendable {
    /// Its place in the conversation: 1, 2, 3…, given by the store.
    public var seq: Int
    /// The sender's and the recipient's external ids.
    public var sender: String
    public var recipient: String
    public var text: String
    /// The sender's name for this send: a retry with the same one returns
    /// this message instead of storing another.
    public var clientID: String
    /// When it was stored, UTC ISO-8601 with milliseconds.
    public var sentAt: String
    /// When the recipient first read it, or nil while unread.
    public var readAt: String?

    public init(
        seq: Int, sender: String, recipient: String, text: String, clientID: String, sentAt: String,
        readAt: String? = nil
    ) {
        self.seq = seq
        self.sender = sender
        self.recipient = recipient
        self.text = text
        self.clientID = clientID
        self.sentAt = sentAt
        self.readAt = readAt
    }
}

/// What `send` did: stored `message` now, or found it stored by an
/// earlier attempt with the same client id (`isRetry`), never a second row.
public struct SentMessage: Hashable, Sendable {
    public var message: Message
    public var isRetry: Bool

    public init(message: Message, isRetry: Bool) {
        self.message = message
        self.isRetry = isRetry
    }
}

/// A send: `viewer` writes `text` to `profile`, under the client id
/// `clientID` (any text of 1 to 128 characters without control characters,
/// unique per sender: a UUID serves), at `date` (now when nil).
public struct MessageSend: Hashable, Sendable {
    public var viewer: String
    public var profile: String
    public var text: String
    public var clientID: String
    public var date: Date?

    public init(viewer: String, profile: String, text: String, clientID: String, at date: Date? = nil) {
        self.viewer = viewer
        self.profile = profile
        self.text = text
        self.clientID = clientID
        self.date = date
    }
}

/// Which messages of one conversation to read.
public struct MessageQuery: Hashable, Sendable {
    public var viewer: String
    /// The other person (external id).
    public var profile: String
    /// Only the last this many (still in order, oldest first); nil: all.
    public var last: Int?
    /// Only those after this place in the conversation (what a client has).
    public var afterSeq: Int?
    /// Mark the messages to the viewer read (at `date`): reading is what
    /// `chat` and `swipe messages` do; a listing that only peeks does not.
    public var markRead: Bool
    public var date: Date?

    public init(
        viewer: String, profile: String, last: Int? = nil, afterSeq: Int? = nil, markRead: Bool = true,
        at date: Date? = nil
    ) {
        self.viewer = viewer
        self.profile = profile
        self.last = last
        self.afterSeq = afterSeq
        self.markRead = markRead
        self.date = date
    }
}

/// One line of a viewer's inbox: a standing match and where its
/// conversation is.
public struct ConversationSummary: Hashable, Sendable {
    /// The other person.
    public var profile: String
    public var name: String
    public var matchedAt: String
    /// The newest message, nil before the first.
    public var last: Message?
    /// Messages to the viewer not yet read.
    public var unread: Int
    /// The match's deadline for a first message (rule match-expiry), nil
    /// when it has none or the first message was sent.
    public var expiresAt: String?
    /// The deadline passed with no message: nobody can write any more.
    public var isExpired: Bool

    public init(
        profile: String, name: String, matchedAt: String, last: Message?, unread: Int, expiresAt: String? = nil,
        isExpired: Bool = false
    ) {
        self.profile = profile
        self.name = name
        self.matchedAt = matchedAt
        self.last = last
        self.unread = unread
        self.expiresAt = expiresAt
        self.isExpired = isExpired
    }
}

/// Why the store refused a message, each naming the rule (Documentation/REPL.md, "Conversations").
public enum MessageRefusal: Hashable, Sendable, CustomStringConvertible {
    /// The two have no match (only a match converses).
    case notMatched(profile: String)
    /// The match was ended (an unmatch, a block, or an undo after the
    /// conversation began): no messages either way, for good.
    case ended(profile: String, at: String)
    /// The match's deadline for a first message passed (rule match-expiry).
    case expired(profile: String, at: String)
    /// The other one writes first (rule first-move).
    case firstMove(gender: String)
    /// Rule first-messages-per-day is used up until `freesAt`.
    case firstMessagesPerDay(limit: Int, freesAt: String)
    /// The sender's messages to this person in the last minute number the
    /// limit (rule messages-per-minute) until `freesAt`.
    case tooFast(profile: String, limit: Int, freesAt: String)
    /// Longer than `Rules.messageLength` characters.
    case tooLong(length: Int)
    /// Nothing but whitespace.
    case empty
    /// A NUL character, which no backend can keep in text.
    case holdsNUL
    /// A client id that is empty, too long or holds a control character.
    case badClientID(String)
    /// The client id already names another message of this sender (another
    /// text or another recipient): a retry must resend what it sent.
    case clientIDReused(String)

    public var description: String {
        switch self {
        case let .notMatched(profile):
            "you and \(profile) have no match: only a match can converse"
        case let .ended(profile, at):
            "your conversation with \(profile) ended at \(at): no more messages either way"
        case let .expired(profile, at):
            "your match with \(profile) expired at \(at) with no first message (rule match-expiry)"
        case let .firstMove(gender):
            "in this match the one of gender \(gender) writes first (rule first-move: \(gender))"
        case let .tooFast(profile, limit, freesAt):
            "slow down: no more messages to \(profile) until \(freesAt) (rule messages-per-minute: \(limit) a minute)"
        case let .firstMessagesPerDay(limit, freesAt):
            "no first messages left until \(freesAt) (rule first-messages-per-day: \(limit) a day)"
        case let .tooLong(length):
            "a message holds at most \(Rules.messageLength) characters; this one has \(length) (rule message length)"
        case .empty:
            "a message needs some text"
        case .holdsNUL:
            "a message cannot hold a NUL character (\\0)"
        case let .badClientID(id):
            "a client id must be 1 to 128 characters without control characters, not \"\(id)\""
        case let .clientIDReused(id):
            "client id \"\(id)\" already names another of your messages; a retry must resend the same text to the same person"
        }
    }
}
