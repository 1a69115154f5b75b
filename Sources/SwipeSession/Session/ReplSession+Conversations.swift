import Foundation
import SwipeCore
import SwipeStore

/// The match whose conversation a session has open.
public struct ChatPartner: Hashable, Sendable {
    public var id: String
    public var name: String
}

/// What a conversation command shows, besides the deck.
package struct ConversationAnswer {
    /// The viewer, to tell their messages from the other's.
    package var viewer: String
    /// The chat just entered (`chat ID`), or still open.
    package var entered: ChatPartner?
    /// The chat just left (`/back`, or the conversation ended).
    package var left: ChatPartner?
    package var messages: [Message]?
    package var sent: SentMessage?
    package var inbox: [ConversationSummary]?
}

extension ReplSession {
    /// The word a count of `line` goes under (`/metrics`): its verb, or in
    /// a chat what the chat makes of it. Always a word of the REPL's own.
    public func verb(of line: ReplLine) -> String {
        chat.map { ChatLine(line.text, name: $0.name).verb } ?? line.verb
    }

    /// The messages `chat` shows on entering.
    package static var chatHistory: Int { 20 }

    package mutating func executeConversation(_ input: ConversationInput) throws -> ReplAnswer {
        var found = ConversationAnswer(viewer: ledger.viewer)
        switch input {
        case .chat(let id):
            let messages = try refusingStrangers(id) { try ledger.read(with: id, last: Self.chatHistory) }
            let partner = ChatPartner(id: id, name: try ledger.name(of: id) ?? id)
            chat = partner
            found.entered = partner
            found.messages = messages
            heard.shown(messages, with: id)
        case .say(let id, let text, let clientID):
            found.sent = try refusingStrangers(id) {
                try ledger.send(to: id, text: text, clientID: clientID ?? UUID().uuidString)
            }
            heard.sentHere(found.sent)
        case .inbox:
            found.inbox = try ledger.inbox()
        }
        var answer = ReplAnswer(snapshot: snapshot)
        answer.conversation = found
        return answer
    }

    /// Runs `body`, a command naming `id` that the store refuses for anyone
    /// but a match: its refusal of someone the viewer has not met (or who
    /// blocked them) becomes the words an id that is no profile gets
    /// (`requireMet`). Checked only when the store refuses, so a message
    /// costs no more than it did.
    private func refusingStrangers<T>(_ id: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            if case .unknownProfile = error { throw error }
            guard Self.isRefusal(error), try !hasMet(id) else { throw error }
            throw StoreError.unknownProfile(id)
        }
    }

    /// A line typed in a chat (`ChatLine`): `/back` leaves, `/quit` ends the
    /// session, `/report REASON` reports the match and leaves, `/help` lists
    /// these, a blank line does nothing, a refused line sends nothing, and
    /// anything else is sent. When the store says the conversation is over
    /// (an unmatch or block, here or elsewhere), the chat closes.
    package mutating func performInChat(_ line: String, with partner: ChatPartner) -> Outcome {
        var answer = ReplAnswer(snapshot: snapshot)
        var found = ConversationAnswer(viewer: ledger.viewer)
        switch ChatLine(line, name: partner.name) {
        case .back:
            chat = nil
            found.left = partner
        case .quit:
            isFinished = true
            answer.quit = true
        case .blank:
            return .blank
        case .help:
            answer.help = Self.chatHelp(partner)
            found.entered = partner
        case .refused(let why):
            return .failure(Refusal(.chat, message: why), deck: nil)
        case .report(let reason):
            return report(partner, reason: reason)
        case .message(let text):
            do {
                found.sent = try ledger.send(to: partner.id, text: text, clientID: UUID().uuidString)
                heard.sentHere(found.sent)
                found.entered = partner
            } catch {
                var refused = refusal(for: error)
                if case StoreError.messageRefused(let refusal) = error, refusal.endsChat {
                    chat = nil
                    refused = Refusal(
                        refused.reason, message: refused.message + "; the chat with \(partner.name) is closed")
                }
                return .failure(refused, deck: nil)
            }
        }
        answer.conversation = found
        return .answer(answer)
    }

    /// `/report REASON` in a chat: the same report as `report ID REASON`
    /// (stored with the pair's last 50 messages, a block that ends the
    /// match and so the conversation for both), then back to the deck. A
    /// refusal (no such person any more, a store failure) leaves the chat open.
    private mutating func report(_ partner: ChatPartner, reason: String) -> Outcome {
        do {
            var answer = try executeDiscovery(.report(partner.id, reason: reason))
            chat = nil
            var found = ConversationAnswer(viewer: ledger.viewer)
            found.left = partner
            answer.conversation = found
            return .answer(answer)
        } catch {
            return .failure(refusal(for: error), deck: nil)
        }
    }

    /// What `/help` shows in a chat.
    package static func chatHelp(_ partner: ChatPartner) -> String {
        let name = TerminalText.oneLine(partner.name)
        let commands = ChatLine.commands(name: name)
        let width = commands.map(\.usage.count).max() ?? 0
        return
            (["in a chat each line you type is sent to \(name); a line that begins with / is one of these:"]
            + commands.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary })
            .joined(separator: "\n")
    }
}

extension MessageRefusal {
    /// Whether the conversation is over (no match any more): an open chat closes.
    package var endsChat: Bool {
        switch self {
        case .notMatched, .ended, .expired: true
        default: false
        }
    }
}

extension ReplAnswer {
    /// "Mia (m-1)", sanitized, each part cut to a one-line width.
    package static func who(_ profile: Profile) -> String {
        TerminalText.oneLine(profile.name) + " (" + TerminalText.oneLine(profile.id) + ")"
    }

    /// A person as messages name them: `Name (id)`, one line.
    package static func who(_ partner: ChatPartner) -> String {
        TerminalText.oneLine(partner.name) + " (" + TerminalText.oneLine(partner.id) + ")"
    }

    /// JSON members: `chat` (the open chat), `left_chat`, `messages`,
    /// `message` and `retry` (a send), `inbox`; messages keyed as `swipe messages` prints them.
    package static func conversationMembers(_ answer: ConversationAnswer) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let partner = answer.entered {
            members.append(("chat", .object([("profile", .string(partner.id)), ("name", .string(partner.name))])))
        }
        if let left = answer.left { members.append(("left_chat", .string(left.id))) }
        if let messages = answer.messages { members.append(("messages", .array(messages.map(messageObject)))) }
        if let sent = answer.sent {
            members.append(("message", messageObject(sent.message)))
            members.append(("retry", .bool(sent.isRetry)))
        }
        if let inbox = answer.inbox {
            members.append(
                (
                    "inbox",
                    .array(
                        inbox.map { entry in
                            .object([
                                ("profile", .string(entry.profile)), ("name", .string(entry.name)),
                                ("matched_at", .string(entry.matchedAt)), ("unread", .number(Double(entry.unread))),
                                ("expired", .bool(entry.isExpired)), ("expires_at", .optional(entry.expiresAt)),
                                ("last", entry.last.map(messageObject) ?? .null),
                            ])
                        })
                ))
        }
        return members
    }

    package static func messageObject(_ message: Message) -> JSONValue {
        .object([
            ("seq", .number(Double(message.seq))), ("sender", .string(message.sender)),
            ("recipient", .string(message.recipient)), ("text", .string(message.text)),
            ("client_id", .string(message.clientID)), ("sent_at", .string(message.sentAt)),
            ("read_at", .optional(message.readAt)),
        ])
    }
}
