/// The REPL's conversation commands (Documentation/REPL.md, "Conversations"), parsed.
public enum ConversationInput: Hashable, Sendable {
    /// Enter the conversation with a match: its last 20 messages, then each
    /// line typed is sent, until `/back`.
    case chat(String)
    /// Send one message from anywhere; `clientID` (`say --id ID …`) makes a
    /// retry of the same line store nothing twice.
    case say(String, text: String, clientID: String?)
    /// The conversations, newest first, with unread counts.
    case inbox
}

extension Command {
    /// Parses the arguments of `chat`, `say` or `inbox`.
    package static func parseConversation(
        _ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError
    ) throws(CommandError) -> Command {
        switch verb {
        case .chat:
            guard arguments.count == 1 else {
                throw fail("chat takes one match's profile id (got \(quoted(arguments))), e.g. chat m-3")
            }
            return .conversation(.chat(arguments[0]))
        case .say:
            var rest = arguments
            var clientID: String?
            if rest.first == "--id" {
                guard rest.count >= 2 else { throw fail("say --id takes a client id, e.g. say --id 7f3a m-3 hello") }
                clientID = rest[1]
                rest.removeFirst(2)
            }
            guard rest.count >= 2 else {
                throw fail(
                    "say takes a match's profile id and the message (got \(quoted(arguments))), e.g. say m-3 hello there"
                )
            }
            return .conversation(.say(rest[0], text: rest.dropFirst().joined(separator: " "), clientID: clientID))
        case .inbox:
            guard arguments.isEmpty else {
                throw fail("inbox takes no arguments (got \(quoted(arguments))), e.g. inbox")
            }
            return .conversation(.inbox)
        default:
            throw fail("\(verb.rawValue) is not a conversation command")
        }
    }
}
