import SwipeCore

/// Commands that act on a person named by id, from a list rather than the
/// deck (Documentation/REPL.md, "Lists that act"): `open ID` (or `profile
/// ID`) shows their detail page, `like ID`, `hate ID`, `superlike ID` decide
/// about them with the deck's rules (a like back from `likes`).
public enum ListedInput: Hashable, Sendable {
    case open(String)
    case decide(String, Decision)
}

extension Command {
    /// `like`, `hate`, `superlike`, `open`: alone they act on the top card;
    /// with one id, on that person.
    package static func parseButtonOrListed(
        _ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError
    ) throws(CommandError) -> Command {
        switch arguments.count {
        case 0:
            return verb == .open ? .event(.open) : .event(.button(Decision(rawValue: verb.rawValue)!))
        case 1:
            return verb == .open
                ? .listed(.open(arguments[0])) : .listed(.decide(arguments[0], Decision(rawValue: verb.rawValue)!))
        default:
            throw fail(
                "\(verb.rawValue) takes no arguments (the top card) or one profile id (got \(quoted(arguments))), "
                    + "e.g. \(verb.rawValue), or \(verb.rawValue) m-3")
        }
    }
}
