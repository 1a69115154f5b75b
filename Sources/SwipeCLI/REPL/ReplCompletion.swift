import SwipeCore
import SwipeSession
import SwipeStore

/// Tab completion for the REPL line, kept pure so it is tested without a
/// terminal: the line editor hands in the text left of the cursor and inserts
/// `insertion`.
public struct ReplCompletion: Hashable, Sendable {
    /// The partial word under the cursor, as the parser will read it (the
    /// text inside an open quote, without the quote).
    public var prefix: String
    /// Every word that could complete it, sorted.
    public var candidates: [String]
    /// The quote the word under the cursor is inside, if any.
    private var quote: Character?
    /// Names of the people whose ids are candidates, for the listing.
    public var names: [String: String] = [:]

    /// The candidates as a Tab with several left lists them: each id with
    /// the person's name when known (`m-3 (Ana)`), so a list of ids says who.
    public var listing: [String] {
        candidates.map { id in names[id].map { id + " (" + TerminalText.oneLine($0) + ")" } ?? id }
    }

    /// What to type for the person: the rest of the common prefix of all
    /// candidates, plus a space when the completion is unique. Inside double
    /// quotes `"` and `\` are escaped and a unique completion closes the
    /// quote; a word not yet begun is quoted when its completion needs it;
    /// a bare word (or one in single quotes) stops before what it cannot hold.
    public var insertion: String {
        guard let first = candidates.first else { return "" }
        var common = first
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(common) { common.removeLast() }
        }
        var rest = String(common.dropFirst(prefix.count))
        let unique = candidates.count == 1
        switch quote {
        case "\"":
            rest = Self.escaped(rest)
            return unique ? rest + "\" " : rest
        case let open?:
            if let stop = rest.firstIndex(of: open) { return String(rest[..<stop]) }
            return unique ? rest + String(open) + " " : rest
        case nil:
            let needsQuotes = { (text: String) in text.contains { $0.isWhitespace || $0 == "\"" || $0 == "'" } }
            guard needsQuotes(rest) else { return unique ? rest + " " : rest }
            if prefix.isEmpty, unique { return "\"" + Self.escaped(rest) + "\" " }
            return String(rest.prefix { !needsQuotes(String($0)) })
        }
    }

    /// Completes `prefix` from `candidates` (those that do not begin with it
    /// are left out): a prompt that asks for one word, such as a profile id.
    public init(prefix: String, candidates: [String]) {
        self.prefix = prefix
        // As for the line's words: an id with a control character is never listed.
        self.candidates = Set(candidates.filter { $0.hasPrefix(prefix) && TerminalText.isClean($0) }).sorted()
    }

    /// Completes the word before the cursor: command names first; then,
    /// by command, physics names (`physics`), command names (`help`) or
    /// profile ids (`history`), `me`'s subcommands, `me set`'s fields and
    /// `me photo`'s subcommands. `profileIDs` is evaluated only when a
    /// profile id is what completes: a Tab on any other word costs no query.
    /// Words are read as the parser reads them, quotes included.
    /// `matches` (the viewer's matches, id and name) complete `chat`, `say`
    /// and `unmatch`; `likers` (who likes the viewer) complete `like`,
    /// `hate` and `superlike`; `open` and `profile` complete from all three
    /// lists; each list is read only when asked.
    public init(
        lineBeforeCursor line: String, profileIDs: @autoclosure () -> [String],
        matches: @autoclosure () -> [(id: String, name: String)] = [],
        likers: @autoclosure () -> [(id: String, name: String)] = []
    ) {
        let lexed = Command.lex(line)
        var words = lexed.words
        quote = lexed.openQuote?.character
        let prefix = lexed.endsBetweenWords ? "" : (words.popLast() ?? "")
        self.prefix = prefix
        let vocabulary: [String]
        if words.isEmpty {
            vocabulary = quote == nil ? ReplVerb.allSpellings : []
        } else if words.count == 1, let verb = ReplVerb.spellings[words[0].lowercased()] {
            switch verb {
            case .physics where quote == nil: vocabulary = PhysicsKind.allCases.map(\.rawValue)
            case .view where quote == nil: vocabulary = ReplView.allCases.map(\.rawValue)
            case .help where quote == nil: vocabulary = ReplVerb.allCases.map(\.rawValue)
            case .history, .block, .unblock, .report: vocabulary = profileIDs()
            case .chat, .say, .unmatch:
                let people = matches()
                vocabulary = people.map(\.id)
                names = Dictionary(people.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            case .like, .hate, .superlike:
                let people = likers()
                vocabulary = people.map(\.id)
                names = Dictionary(people.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            case .open:
                let people = matches() + likers()
                vocabulary = people.map(\.id) + profileIDs()
                names = Dictionary(people.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            case .prefs where quote == nil: vocabulary = ["age", "seeking", "km", "location"]
            case .me where quote == nil: vocabulary = Self.meSubcommands
            case .moderate where quote == nil: vocabulary = ModerationCommand.actions
            default: vocabulary = []
            }
        } else if words.count == 2, quote == nil, ReplVerb.spellings[words[0].lowercased()] == .me {
            // `me set FIELD`, `me photo add|move|remove` (as `parseMe` reads them).
            switch words[1].lowercased() {
            case "set": vocabulary = MeField.allCases.map(\.rawValue)
            case "photo", "photos": vocabulary = Self.mePhotoSubcommands
            default: vocabulary = []
            }
        } else {
            vocabulary = []
        }
        // An id with a control character in it is never listed nor
        // inserted: it would reach the terminal raw (and cannot be typed).
        candidates = Set(vocabulary.filter { $0.hasPrefix(prefix) && TerminalText.isClean($0) }).sorted()
    }

    /// Completes a line typed in a chat: a `/` command word at the start
    /// (`/r` → `/report `); nothing in a message.
    public init(chatLine line: String) {
        let typing = line.drop { $0.isWhitespace }
        let isWord = typing.hasPrefix("/") && !typing.contains { $0.isWhitespace }
        prefix = isWord ? String(typing) : ""
        candidates = isWord ? ChatLine.words.filter { $0.hasPrefix(typing.lowercased()) }.sorted() : []
    }

    /// The words after `me`, and after `me photo` (`Command.parseMe`).
    static let meSubcommands = ["erase", "export", "photo", "set"]
    static let mePhotoSubcommands = ["add", "move", "remove"]

    /// `text` as it is written inside double quotes.
    private static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }
}
