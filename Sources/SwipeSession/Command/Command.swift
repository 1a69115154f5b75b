import SwipeCore
import SwipeStore

/// One command of a session, typed: what a finger, a person at the prompt,
/// a script or the page asked the deck and the store to do. Every interface
/// reads its own spelling into one: a line of words (`Command.parse`), a
/// command object (`ReplCommandObject`, and `Codable` as that object), and
/// the session runs it (`ReplSession.perform`) to an `Outcome`.
public enum Command: Hashable, Sendable {
    /// An input for the deck, sent as it is: a gesture (`drag`, `release`,
    /// `cancel`), a button, the detail page (`open`/`tap`, `back` = `close`),
    /// `undo`, `reload` or `physics`.
    case event(DeckEvent)
    /// Draw the deck again, changing nothing.
    case deck
    /// The viewer's decisions, newest first; with a profile id, only that profile's.
    case history(profile: String?)
    case matches
    /// `matches --with-messages`: each with its conversation's message count and last message time.
    case matchesWithMessages
    /// `view compact|full` sets how much is drawn; `view` alone says which.
    case view(ReplView?)
    case help(topic: ReplVerb?)
    case quit
    /// prefs, likes, why, block, unblock, unmatch, report (README "Discovery", "Ranking").
    case discovery(DiscoveryInput)
    /// chat, say, inbox (Documentation/REPL.md, "Conversations").
    case conversation(ConversationInput)
    /// open ID, like ID… (Documentation/REPL.md, "Lists that act").
    case listed(ListedInput)
    /// me, me set (Documentation/PersonalData.md): one's own profile.
    case me(MeInput)
    /// `moderate …` (Documentation/Moderation.md): a moderator's command.
    case moderate(ModerationCommand)
    /// `acknowledge`: the viewer has read their warnings.
    case acknowledge
    /// `insights [--by day|week|month] [--since D] [--until D] [--all]`
    /// (Documentation/Insights.md): the viewer's own rows, or a moderator's
    /// whole market.
    case insights(InsightsInput)
    /// A list (`history`, `matches`, `likes`, `inbox`) with `--since` and
    /// `--until`: only its rows in the window.
    indirect case within(TimeWindow, Command)
}

/// What `insights` asks: the period of a row, the range (nil: the
/// defaults `swipe insights` takes), and whether the whole market.
public struct InsightsInput: Hashable, Sendable {
    public var by: InsightPeriod
    public var since: String?
    public var until: String?
    /// The whole market, not the viewer's own rows: moderators only.
    public var all: Bool

    public init(by: InsightPeriod = .day, since: String? = nil, until: String? = nil, all: Bool = false) {
        self.by = by
        self.since = since
        self.until = until
        self.all = all
    }
}

/// The words the REPL understands, in the order `help` lists them. `exit`,
/// `tap` and `nope` are spellings of `quit`, `open` and `hate` (the NOPE the
/// deck shows) and are accepted but listed under their main word.
public enum ReplVerb: String, CaseIterable, Hashable, Sendable {
    case drag, release, cancel, like, hate, superlike, open, back, undo, deck, history, matches, reload,
        physics, view, prefs, me, likes, why, block, unblock, unmatch, report, chat, say, inbox, insights, acknowledge,
        moderate,
        help, quit

    /// Every spelling, main words first, for completion and for parsing.
    public static let spellings: [String: ReplVerb] = {
        var table = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        table["tap"] = .open
        table["profile"] = .open
        table["exit"] = .quit
        table["nope"] = .hate
        return table
    }()

    /// All spellings in completion order (main words, then aliases).
    public static let allSpellings: [String] = allCases.map(\.rawValue) + ["tap", "exit", "nope", "profile"]
}
