import SwipeStore

/// A line typed in a chat (`swipe[chat NAME]>`, Documentation/REPL.md,
/// "Conversations"): a message to the match, or one of the chat's own
/// commands, which begin with `/`.
///
/// Two kinds of line are refused rather than sent, since sending them would
/// surprise: a `/word` that is no chat command (a typo of `/back` must not
/// reach the other person), and a line whose first word is `report`. A
/// person who types `report he threatened me` in a chat means to report;
/// sent as a message, it would tell the very person reported. `/say TEXT`
/// sends either as it is.
package enum ChatLine: Equatable {
    case blank
    case message(String)
    case back
    case quit
    case help
    /// Report the match to the moderators (blocks them, ends the conversation).
    case report(reason: String)
    /// Not sent: why, and what to type instead.
    case refused(String)

    /// The chat's commands with their arguments and what each does, as
    /// `/help` lists them; `name` is the match's.
    package static func commands(name: String) -> [(usage: String, summary: String)] {
        [
            ("/back", "return to the deck"),
            (
                "/report REASON…",
                "report \(name) to the moderators: blocks them, ends the conversation for both, and "
                    + "keeps your last \(Report.transcriptLength) messages with the report"
            ),
            ("/say TEXT…", "send TEXT as it is (a line that begins with / or with the word report)"),
            ("/help", "this list"),
            ("/quit", "end the session"),
        ]
    }

    /// The command words, for Tab.
    package static let words = ["/back", "/report", "/say", "/help", "/quit"]

    /// Reads `line` (already trimmed) typed in the chat with `name`.
    package init(_ line: String, name: String) {
        guard !line.isEmpty else {
            self = .blank
            return
        }
        // By Unicode scalars: a combining mark after the space belongs to the text.
        let scalars = line.unicodeScalars
        let word = String(scalars.prefix { !$0.properties.isWhitespace })
        let rest = String(scalars.dropFirst(word.unicodeScalars.count)).trimmingWhitespace
        guard word.hasPrefix("/") else {
            if word.lowercased() == "report" {
                self = .refused(
                    "not sent: to report \(name), type /report REASON (it blocks them and ends the conversation); "
                        + "/say \(line) sends this line as a message")
            } else {
                self = .message(line)
            }
            return
        }
        switch word.lowercased() {
        case "/back", "/quit":
            if rest.isEmpty {
                self = word.lowercased() == "/back" ? .back : .quit
            } else {
                self = .refused("not sent: \(word.lowercased()) takes nothing (got \(rest)); /say \(line) sends it")
            }
        case "/help":
            self = .help
        case "/report":
            self =
                rest.isEmpty
                ? .refused("/report takes a reason, e.g. /report rude messages (reports \(name) and blocks them)")
                : .report(reason: rest)
        case "/say":
            self = rest.isEmpty ? .refused("/say takes the text to send, e.g. /say /back soon") : .message(rest)
        default:
            self = .refused("not sent: \(word) is no chat command (/help lists them); /say \(line) sends it")
        }
    }

    /// What `/metrics` counts the line as: a fixed word, never what was typed.
    package var verb: String {
        switch self {
        case .blank: "blank"
        case .message: "chat-message"
        case .back: "/back"
        case .quit: "/quit"
        case .help: "/help"
        case .report: "/report"
        case .refused: "chat-refused"
        }
    }
}
