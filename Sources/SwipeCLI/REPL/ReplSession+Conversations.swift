import Foundation
import SwipeCore
import SwipeStore

/// The match whose conversation a session has open.
public struct ChatPartner: Hashable, Sendable {
    public var id: String
    public var name: String
}

/// What a conversation command shows, besides the deck.
struct ConversationAnswer {
    /// The viewer, to tell their messages from the other's.
    var viewer: String
    /// The chat just entered (`chat ID`), or still open.
    var entered: ChatPartner?
    /// The chat just left (`/back`, or the conversation ended).
    var left: ChatPartner?
    var messages: [Message]?
    var sent: SentMessage?
    var inbox: [ConversationSummary]?
}

extension ReplSession {
    /// What the prompt says: `swipe[chat NAME]> ` in a chat, `swipe[profile NAME]> `
    /// on a profile `open ID` opened, else where the deck is.
    public var prompt: String {
        chat.map { "swipe[chat " + TerminalText.oneLine($0.name) + "]> " }
            ?? viewing.map { "swipe[profile " + TerminalText.oneLine($0.name) + "]> " }
            ?? ReplPrompt.text(for: snapshot.mode)
    }

    /// The word a count of `line` goes under (`/metrics`): its verb, or in
    /// a chat what the chat makes of it. Always a word of the REPL's own.
    public func verb(of line: ReplLine) -> String {
        chat.map { ChatLine(line.text, name: $0.name).verb } ?? line.verb
    }

    /// The messages `chat` shows on entering.
    static var chatHistory: Int { 20 }

    mutating func executeConversation(_ input: ConversationInput) throws -> ReplAnswer {
        var found = ConversationAnswer(viewer: ledger.viewer)
        switch input {
        case .chat(let id):
            let messages = try refusingStrangers(id) { try ledger.read(with: id, last: Self.chatHistory) }
            let partner = ChatPartner(id: id, name: try ledger.name(of: id) ?? id)
            chat = partner
            found.entered = partner
            found.messages = messages
        case .say(let id, let text, let clientID):
            found.sent = try refusingStrangers(id) {
                try ledger.send(to: id, text: text, clientID: clientID ?? UUID().uuidString)
            }
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
    mutating func performInChat(_ line: String, with partner: ChatPartner) -> ReplOutcome {
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
            return .failure(why, deck: nil)
        case .report(let reason):
            return report(partner, reason: reason)
        case .message(let text):
            do {
                found.sent = try ledger.send(to: partner.id, text: text, clientID: UUID().uuidString)
                found.entered = partner
            } catch {
                var message = describe(error)
                if case StoreError.messageRefused(let refusal) = error, refusal.endsChat {
                    chat = nil
                    message += "; the chat with \(partner.name) is closed"
                }
                return .failure(message, deck: nil)
            }
        }
        answer.conversation = found
        return .answer(answer)
    }

    /// `/report REASON` in a chat: the same report as `report ID REASON`
    /// (stored with the pair's last 50 messages, a block that ends the
    /// match and so the conversation for both), then back to the deck. A
    /// refusal (no such person any more, a store failure) leaves the chat open.
    private mutating func report(_ partner: ChatPartner, reason: String) -> ReplOutcome {
        do {
            var answer = try executeDiscovery(.report(partner.id, reason: reason))
            chat = nil
            var found = ConversationAnswer(viewer: ledger.viewer)
            found.left = partner
            answer.conversation = found
            return .answer(answer)
        } catch {
            return .failure(describe(error), deck: nil)
        }
    }

    /// What `/help` shows in a chat.
    static func chatHelp(_ partner: ChatPartner) -> String {
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
    var endsChat: Bool {
        switch self {
        case .notMatched, .ended, .expired: true
        default: false
        }
    }
}

extension ReplAnswer {
    /// Text lines for a conversation command.
    static func conversationLines(_ answer: ConversationAnswer, style: ReplStyle) -> [String] {
        var lines: [String] = []
        if let left = answer.left {
            lines.append("left the chat with " + TerminalText.oneLine(left.name) + ", back to the deck")
        }
        if let messages = answer.messages, let partner = answer.entered {
            lines.append(
                style.paint(
                    "chat with " + who(partner) + ": type to send, /back returns to the deck, /help lists the rest",
                    .bold))
            lines +=
                messages.isEmpty
                ? ["no messages yet: say hello"]
                : messages.map { messageLine($0, viewer: answer.viewer, partner: partner, style: style) }
        }
        if let sent = answer.sent {
            let to =
                answer.entered.map { TerminalText.oneLine($0.name) } ?? TerminalText.oneLine(sent.message.recipient)
            lines.append(
                "› sent to " + to + ": " + TerminalText.sanitized(sent.message.text)
                    + style.paint(" · " + (sent.isRetry ? "already stored " : "saved ") + sent.message.sentAt, .dim))
        }
        if let inbox = answer.inbox {
            lines +=
                inbox.isEmpty
                ? ["no conversations yet: a match starts one"]
                : inbox.map { inboxLine($0, viewer: answer.viewer, style: style) }
        }
        return lines
    }

    static func who(_ partner: ChatPartner) -> String {
        TerminalText.oneLine(partner.name) + " (" + TerminalText.oneLine(partner.id) + ")"
    }

    static func messageLine(_ message: Message, viewer: String, partner: ChatPartner, style: ReplStyle) -> String {
        let from = message.sender == viewer ? "you" : TerminalText.oneLine(partner.name)
        return style.paint(message.sentAt, .dim) + " "
            + style.paint(from + ":", message.sender == viewer ? .accent : .bold)
            + " " + TerminalText.sanitized(message.text)
    }

    static func inboxLine(_ entry: ConversationSummary, viewer: String, style: ReplStyle) -> String {
        var line =
            style.paint("★", .superlike) + " " + TerminalText.oneLine(entry.profile) + " "
            + TerminalText.oneLine(entry.name)
        if entry.unread > 0 { line += style.paint(" · \(entry.unread) unread", .bold) }
        if let last = entry.last {
            let from = last.sender == viewer ? "you" : TerminalText.oneLine(entry.name)
            line +=
                " · " + from + ": " + TerminalText.truncated(TerminalText.sanitized(last.text), toWidth: 40)
                + style.paint(" · " + last.sentAt, .dim)
        } else if entry.isExpired {
            line += style.paint(" · expired " + (entry.expiresAt ?? "") + " with no message", .dim)
        } else {
            line += style.paint(
                " · matched " + entry.matchedAt + ", no messages yet"
                    + (entry.expiresAt.map { ", first message by " + $0 } ?? ""), .dim)
        }
        return line
    }

    /// JSON members: `chat` (the open chat), `left_chat`, `messages`,
    /// `message` and `retry` (a send), `inbox`; messages keyed as `swipe messages` prints them.
    static func conversationMembers(_ answer: ConversationAnswer) -> [(String, JSONValue)] {
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

    static func messageObject(_ message: Message) -> JSONValue {
        .object([
            ("seq", .number(Double(message.seq))), ("sender", .string(message.sender)),
            ("recipient", .string(message.recipient)), ("text", .string(message.text)),
            ("client_id", .string(message.clientID)), ("sent_at", .string(message.sentAt)),
            ("read_at", .optional(message.readAt)),
        ])
    }
}
