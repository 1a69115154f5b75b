import SwipeSession
import SwipeStore

extension SessionEvent {
    /// The line the REPL prints above its prompt when `viewer`'s session
    /// hears this: in the open chat a message reads as the chat's own lines
    /// do; elsewhere each line says what to type to act on it.
    public func textLine(viewer: String, style: ReplStyle) -> String {
        switch self {
        case .matched(let partner, _):
            return style.paint("♥ new match: " + ReplAnswer.who(partner), .like) + " · chat "
                + TerminalText.oneLine(partner.id) + " to say hello"
        case .message(let message, let partner, true):
            return ReplAnswer.messageLine(message, viewer: viewer, partner: partner, style: style)
        case .message(let message, let partner, false):
            let text = TerminalText.truncated(TerminalText.sanitized(message.text), toWidth: 60)
            if message.sender == viewer {
                return "› you to " + TerminalText.oneLine(partner.name) + " (sent elsewhere): " + text
            }
            return style.paint("› " + ReplAnswer.who(partner) + ":", .bold) + " " + text
                + style.paint(" · chat " + TerminalText.oneLine(partner.id) + " to reply", .dim)
        case .unmatched(let partner):
            return style.paint("the match with " + ReplAnswer.who(partner) + " ended", .dim)
        }
    }
}
