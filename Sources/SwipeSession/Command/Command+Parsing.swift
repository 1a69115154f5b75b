import SwipeCore
import SwipeStore

extension Command {
    /// Largest size of a drag translation (points) or a release velocity
    /// (points per second): the deck's own limit, so the REPL refuses exactly
    /// what the deck would.
    public static let numberLimit = DeckEvent.magnitudeLimit

    /// Parses one line. Returns nil for a blank line or a `#` comment (scripts
    /// use them); throws a message that quotes the input and shows the right
    /// form otherwise. A line holding a NUL byte is refused whole: no command
    /// takes one, and number readers stop at it (`drag 150\0xyz 0` must not
    /// pass for `drag 150 0`).
    public static func parse(_ line: String) throws(CommandError) -> Command? {
        let trimmed = line.trimmingWhitespace
        let fail = { (message: String) in CommandError(input: trimmed, message: message) }
        if trimmed.unicodeScalars.contains("\0") {
            throw fail("the line holds a NUL byte (\\0), which no command takes; nothing was done")
        }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        if let freeText = try parseFreeText(trimmed, fail: fail) { return freeText }
        let words: [String]
        do {
            words = try Self.words(trimmed)
        } catch {
            let command = error.before.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? error.before
            throw fail(
                "\(command): the quote opened before \"\(error.rest)\" is never closed; close it, "
                    + "e.g. \(error.before) \"\(error.rest)\"")
        }
        return try parse(words: words, fail: fail)
    }

    /// The command `words` make: the verb, then its arguments, each one word
    /// exactly as given. A line's words come from its lexer; a command
    /// object's (`ReplCommandObject`) are its values, with no quoting or
    /// lexing between what was sent and what is read. Nil for no words.
    package static func parse(words: [String], fail: (String) -> CommandError) throws(CommandError) -> Command? {
        if words.contains(where: { $0.unicodeScalars.contains("\0") }) {
            throw fail("a value holds a NUL byte (\\0), which no command takes; nothing was done")
        }
        guard let first = words.first else { return nil }
        let arguments = Array(words.dropFirst())

        guard let verb = ReplVerb.spellings[first.lowercased()] else {
            throw fail(unknownCommandMessage(first))
        }
        if Self.windowed.contains(verb), let (window, rest) = try timeWindow(verb, arguments, fail: fail) {
            return try parse(verb, rest, fail: fail).map { .within(window, $0) }
        }
        return try parse(verb, arguments, fail: fail)
    }

    /// The command `verb` makes of its `arguments` (the words after it).
    private static func parse(_ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError)
        throws(CommandError) -> Command?
    {
        switch verb {
        case .drag:
            guard arguments.count == 2 else {
                throw fail("drag takes two numbers: DX DY (got \(quoted(arguments))), e.g. drag 60 -10")
            }
            let dx = try number(arguments[0], usage: "drag", form: "DX DY", fail: fail)
            let dy = try number(arguments[1], usage: "drag", form: "DX DY", fail: fail)
            return .event(.drag(dx: dx, dy: dy))
        case .release:
            switch arguments.count {
            case 0:
                return .event(.release(vx: 0, vy: 0))
            case 2:
                let vx = try number(arguments[0], usage: "release", form: "VX VY", fail: fail)
                let vy = try number(arguments[1], usage: "release", form: "VX VY", fail: fail)
                return .event(.release(vx: vx, vy: vy))
            default:
                throw fail(
                    "release takes no numbers or two: [VX VY] in points per second (got \(quoted(arguments))), "
                        + "e.g. release or release 1200 0")
            }
        case .like, .hate, .superlike, .open:
            return try parseButtonOrListed(verb, arguments, fail: fail)
        case .back:
            try noArguments(verb, arguments, fail: fail)
            return .event(.close)
        case .cancel:
            try noArguments(verb, arguments, fail: fail)
            return .event(.cancel)
        case .undo:
            try noArguments(verb, arguments, fail: fail)
            return .event(.undo)
        case .deck:
            try noArguments(verb, arguments, fail: fail)
            return .deck
        case .matches:
            if arguments.map({ $0.lowercased() }) == ["--with-messages"] { return .matchesWithMessages }
            guard arguments.isEmpty else {
                throw fail(
                    "matches takes --with-messages, --since D and --until D (got \(quoted(arguments))), "
                        + "e.g. matches --with-messages")
            }
            return .matches
        case .reload:
            try noArguments(verb, arguments, fail: fail)
            return .event(.reload)
        case .quit:
            try noArguments(verb, arguments, fail: fail)
            return .quit
        case .history:
            guard arguments.count <= 1 else {
                throw fail(
                    "history takes at most one profile id: history [PROFILE_ID] (got \(quoted(arguments))), "
                        + "e.g. history m-1, or history \"an id\" for one with spaces")
            }
            return .history(profile: arguments.first)
        case .physics:
            let names = PhysicsKind.allCases.map(\.rawValue).joined(separator: ", ")
            guard arguments.count == 1, let kind = PhysicsKind(rawValue: arguments[0].lowercased()) else {
                let hint = didYouMean(arguments, among: PhysicsKind.allCases.map(\.rawValue), verb: "physics")
                throw fail("physics takes one name: \(names) (got \(quoted(arguments)))\(hint), e.g. physics stack")
            }
            return .event(.setPhysics(kind))
        case .view:
            guard arguments.count <= 1 else {
                throw fail("view takes compact or full (got \(quoted(arguments))), e.g. view full")
            }
            guard let name = arguments.first else { return .view(nil) }
            guard let view = ReplView(rawValue: name.lowercased()) else {
                let hint = didYouMean(arguments, among: ["compact", "full"], verb: "view")
                throw fail("view takes compact or full (got \(quoted(arguments)))\(hint), e.g. view full")
            }
            return .view(view)
        case .prefs, .likes, .why, .block, .unblock, .unmatch, .report:
            return try parseDiscovery(verb, arguments, fail: fail)
        case .chat, .say, .inbox:
            return try parseConversation(verb, arguments, fail: fail)
        case .me:
            return try parseMe(arguments, fail: fail)
        case .moderate:
            throw fail(
                "moderate takes an action: \(ModerationCommand.actions.joined(separator: ", ")); e.g. moderate queue")
        case .acknowledge:
            try noArguments(verb, arguments, fail: fail)
            return .acknowledge
        case .insights:
            return .insights(try parseInsights(arguments, fail: fail))
        case .help:
            guard arguments.count <= 1 else {
                throw fail(
                    "help takes at most one command name: help [COMMAND] (got \(quoted(arguments))), e.g. help drag")
            }
            guard let topic = arguments.first else { return .help(topic: nil) }
            guard let topicVerb = ReplVerb.spellings[topic.lowercased()] else {
                let names = ReplVerb.allCases.map(\.rawValue).joined(separator: ", ")
                let hint = didYouMean(arguments, among: ReplVerb.allSpellings, verb: "help")
                throw fail("help knows these commands: \(names) (got \(quoted(arguments)))\(hint), e.g. help drag")
            }
            return .help(topic: topicVerb)
        }
    }

    /// The commands that end in free text (`say ID TEXT…`, `report ID
    /// REASON…`, `me set FIELD VALUE…`): their fixed words, then the rest of
    /// the line exactly as typed (`fixedWords`). Nil for any other line.
    private static func parseFreeText(
        _ line: String, fail: (String) -> CommandError
    ) throws(CommandError) -> Command? {
        let first = String(line.unicodeScalars.prefix { !$0.properties.isWhitespace }).lowercased()
        guard let verb = ReplVerb.spellings[first], [.say, .report, .me, .moderate].contains(verb) else { return nil }
        func read(_ count: Int) throws(CommandError) -> (words: [String], rest: String) {
            do {
                return try fixedWords(line, count: count)
            } catch {
                throw fail(
                    "\(first): the quote opened before \"\(error.rest)\" is never closed in its id; close it, "
                        + "e.g. \(error.before) \"\(error.rest)\"")
            }
        }
        switch verb {
        case .say:
            var (words, text) = try read(2)
            var clientID: String?
            if words.count == 2, words[1] == "--id" {
                (words, text) = try read(4)
                guard words.count >= 3 else {
                    throw fail("say --id takes a client id, e.g. say --id 7f3a m-3 hello")
                }
                clientID = words[2]
                words = [words[0]] + words.dropFirst(3)
            }
            guard words.count == 2, !text.isEmpty else {
                throw fail(
                    "say takes a match's profile id and the message (got \(quoted(Array(words.dropFirst()) + (text.isEmpty ? [] : [text])))), "
                        + "e.g. say m-3 hello there")
            }
            return .conversation(.say(words[1], text: text, clientID: clientID))
        case .report:
            let (words, reason) = try read(2)
            guard words.count == 2, !reason.isEmpty else {
                throw fail(
                    "report takes a profile id and a reason (got \(quoted(Array(words.dropFirst())))), e.g. report m-3 rude messages"
                )
            }
            return .discovery(.report(words[1], reason: reason))
        case .moderate:
            return .moderate(try parseModerate(read, fail: fail))
        default:
            let (head, _) = try read(2)
            guard head.count == 2, head[1].lowercased() == "set" else { return nil }
            let (words, value) = try read(3)
            guard words.count == 3, !value.isEmpty else { return nil }  // the shell-style parser words the refusal
            guard let field = MeField.spellings[words[2].lowercased()] else { return nil }
            // `""` (or `''`) alone is no value: it clears a field that may be empty.
            return .me(.set(field, value == "\"\"" || value == "''" ? "" : value))
        }
    }

    /// `moderate ACTION …` (Documentation/Moderation.md): the action, its
    /// ids, then for ban, warn, remove-photo and resolve the rest of the
    /// line as typed (the reason or note).
    private static func parseModerate(
        _ read: (Int) throws(CommandError) -> (words: [String], rest: String), fail: (String) -> CommandError
    ) throws(CommandError) -> ModerationCommand {
        let actions = ModerationCommand.actions.joined(separator: ", ")
        let (head, _) = try read(2)
        guard head.count == 2 else { throw fail("moderate takes an action: \(actions); e.g. moderate queue") }
        let action = head[1].lowercased()
        func usage(_ form: String, _ example: String) -> CommandError {
            fail("moderate \(action) takes \(form), e.g. moderate \(action) \(example)")
        }
        switch action {
        case "queue", "log":
            guard try read(2).rest.isEmpty else { throw usage("nothing more", "") }
            return action == "queue" ? .queue : .log
        case "show", "unban", "grant", "revoke":
            let (words, rest) = try read(3)
            guard words.count == 3, rest.isEmpty else {
                throw action == "show"
                    ? usage("one ITEM as the queue numbers it", "12") : usage("one profile id", "p-24")
            }
            switch action {
            case "show": return .show(item: words[2])
            case "unban": return .unban(id: words[2])
            case "grant": return .grant(id: words[2])
            default: return .revoke(id: words[2])
            }
        case "ban":
            var (words, reason) = try read(3)
            var days: Int?
            let (long, longRest) = try read(5)
            if long.count == 5, long[3] == "--days" {
                guard let count = Int(long[4]) else {
                    throw usage("--days and a whole number of days", "p-24 --days 7 spam links")
                }
                (words, reason, days) = (Array(long.prefix(3)), longRest, count)
            }
            guard words.count == 3, !reason.isEmpty else {
                throw usage("an id, --days N unless for good, and a reason", "p-24 --days 7 spam links")
            }
            return .ban(id: words[2], reason: reason, days: days)
        case "warn":
            let (words, reason) = try read(3)
            guard words.count == 3, !reason.isEmpty else { throw usage("an id and a reason", "p-24 be kind") }
            return .warn(id: words[2], reason: reason)
        case "remove-photo":
            let (words, reason) = try read(4)
            guard words.count == 4, let position = Int(words[3]), !reason.isEmpty else {
                throw usage("an id, the photo's position and a reason", "p-24 2 not their photo")
            }
            return .removePhoto(id: words[2], position: position, reason: reason)
        case "resolve":
            let (words, note) = try read(3)
            guard words.count == 3, !note.isEmpty else { throw usage("an ITEM and a note", "12 warned them") }
            return .resolve(item: words[2], note: note)
        default:
            let hint = didYouMean([action], among: ModerationCommand.actions, verb: "moderate")
            throw fail("moderate takes an action: \(actions) (got \"\(action)\")\(hint); e.g. moderate queue")
        }
    }

    /// A plain decimal number within ±`numberLimit`.
    private static func number(
        _ word: String, usage: String, form: String, fail: (String) -> CommandError
    ) throws(CommandError) -> Double {
        guard let value = plainDecimal(word) else {
            throw fail("\(usage) takes two numbers: \(form) (got \(quoted([word]))), e.g. \(example(usage))")
        }
        guard value.isFinite, abs(value) <= numberLimit else {
            let bound = "±\(Int(numberLimit)) points" + (usage == "drag" ? "" : " per second")
            throw fail(
                "\(usage) takes finite numbers within \(bound): \(form) (got \(quoted([word]))), "
                    + "e.g. \(example(usage))")
        }
        return value == 0 ? 0 : value  // -0 prints as 0 everywhere
    }

    private static func example(_ usage: String) -> String {
        usage == "drag" ? "drag 60 -10" : "release 1200 0"
    }

    private static func noArguments(
        _ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError
    ) throws(CommandError) {
        guard !arguments.isEmpty else { return }
        throw fail("\(verb.rawValue) takes no arguments (got \(quoted(arguments))), e.g. \(verb.rawValue)")
    }

    private static func unknownCommandMessage(_ word: String) -> String {
        let lower = word.lowercased()
        let near = ReplVerb.allSpellings.filter { $0.hasPrefix(lower) || lower.hasPrefix($0) }
        // One guess only: the one candidate, or the one every other extends ("lik": like, likes).
        let guess =
            near.min { $0.count < $1.count }.flatMap { shortest in
                near.allSatisfy { $0.hasPrefix(shortest) } ? shortest : nil
            }
            ?? (near.isEmpty ? Spelling.suggestion(for: lower, among: ReplVerb.allSpellings) : nil)
        let hint = guess.map { "did you mean \"\($0)\"? " } ?? ""
        return "unknown command \(quoted([word])): \(hint)type help for the list of commands"
    }

    /// "; did you mean \"physics tantan\"?" when the one argument is a likely
    /// typo of one of `names`; empty otherwise.
    package static func didYouMean(_ arguments: [String], among names: [String], verb: String) -> String {
        guard arguments.count == 1, let near = Spelling.suggestion(for: arguments[0], among: names) else { return "" }
        return "; did you mean \"\(verb) \(near)\"?"
    }

    /// The arguments as the person typed them, in quotes; "nothing" when absent.
    package static func quoted(_ words: [String]) -> String {
        words.isEmpty ? "nothing" : "\"" + words.joined(separator: " ") + "\""
    }
}

extension String {
    /// The string without leading and trailing whitespace (Foundation-free).
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
