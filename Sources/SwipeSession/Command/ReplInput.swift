import SwipeCore
import SwipeStore

/// One line of REPL input, parsed: what a finger (or a person at the prompt)
/// asked the deck to do. Named `ReplInput` so it never clashes with the
/// executable's ArgumentParser `ReplCommand`.
public enum ReplInput: Hashable, Sendable {
    /// An input for the deck, sent as it is: a gesture (`drag`, `release`,
    /// `cancel`), a button, the detail page (`open`/`tap`, `back` = `close`),
    /// `undo`, `reload` or `physics`.
    case event(DeckEvent)
    /// Draw the deck again, changing nothing.
    case deck
    /// The viewer's decisions, newest first; with a profile id, only that profile's.
    case history(profile: String?)
    case matches
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
}

/// The words the REPL understands, in the order `help` lists them. `exit`,
/// `tap` and `nope` are spellings of `quit`, `open` and `hate` (the NOPE the
/// deck shows) and are accepted but listed under their main word.
public enum ReplVerb: String, CaseIterable, Hashable, Sendable {
    case drag, release, cancel, like, hate, superlike, open, back, undo, deck, history, matches, reload,
        physics, view, prefs, me, likes, why, block, unblock, unmatch, report, chat, say, inbox, acknowledge, moderate,
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
