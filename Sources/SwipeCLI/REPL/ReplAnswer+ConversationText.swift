import SwipeCore
import SwipeSession
import SwipeStore

extension ReplSession {
    /// What the prompt says: `swipe[chat NAME]> ` in a chat, `swipe[profile NAME]> `
    /// on a profile `open ID` opened, else where the deck is.
    public var prompt: String {
        chat.map { "swipe[chat " + TerminalText.oneLine($0.name) + "]> " }
            ?? viewing.map { "swipe[profile " + TerminalText.oneLine($0.name) + "]> " }
            ?? ReplPrompt.text(for: snapshot.mode)
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
}
