import SwipeCore

/// One viewer's part of the store, as a deck session uses it: record and
/// undo that viewer's decisions, read their history and matches, and the
/// discovery commands (preferences, blocks, reports, who likes them).
///
/// Every caller acts through one scope bound to one viewer, so no call can
/// name another viewer by mistake. `ViewerScope` is the one implementation
/// over a swipe database (the REPL's, and `swipe serve`'s over its pool);
/// tests may use an in-memory one. Methods throw the store's own errors,
/// except that `record` throws `DecidedElsewhere` when the card is no longer
/// the viewer's to decide.
public protocol ViewerLedger {
    /// The viewer this scope acts as.
    var viewer: String { get }

    /// Stores `decision` (viewer: the scope's) and says when, and the match it made.
    func record(_ decision: DeckDecision) throws -> RecordedDecision
    /// Stamps the viewer's latest un-undone decision about `decision.profile` as undone.
    func undo(_ decision: DeckDecision) throws
    /// `undo`, saying whether it ended a match.
    func undoEndingMatch(_ decision: DeckDecision) throws -> Bool
    /// The viewer's most recent standing decision, from any session: what
    /// `undo` reaches back to once the deck's own decisions are taken back.
    func latestStandingDecision() throws -> DeckDecision?
    /// The viewer's decisions, newest first; only about `profile` when given.
    func history(about profile: String?) throws -> [HistoryEntry]
    /// `history` with only the decisions made in `window` (`--since`, `--until`).
    func history(about profile: String?, in window: TimeWindow) throws -> [HistoryEntry]
    /// The viewer's current matches, newest first.
    func matches() throws -> [Match]

    /// The viewer's profile, preferences included.
    func viewerProfile() throws -> Profile
    func setPreferences(_ change: PreferencesChange) throws -> Profile
    /// Changes one field of the viewer's own profile (`me set`).
    func editProfile(_ edit: ProfileEdit) throws -> Profile
    /// Adds, removes or moves one of the viewer's photos (`me photo`,
    /// Documentation/Photos.md) and returns the profile as stored.
    func changePhotos(_ change: PhotoChange) throws -> Profile
    /// Changes the viewer's preferences as their own edit (`me set`): activity too.
    func editPreferences(_ change: PreferencesChange) throws -> Profile
    /// Erases the viewer and every row naming them (`me erase`).
    func erase() throws -> Erasure
    /// Everything the store holds about the viewer (`me export`): the
    /// document `swipe export` writes, read by the same rule.
    func exportPersonalData() throws -> PersonalExport
    /// Which of these ids the viewer may still be shown (the cards in the deck).
    func eligible(among ids: [String]) throws -> Set<String>
    func block(_ id: String) throws -> BlockOutcome
    func unblock(_ id: String) throws
    func unmatch(_ id: String) throws
    func report(_ id: String, reason: String) throws -> BlockOutcome
    /// Who holds a standing like or superlike of the viewer (blocks excluded).
    func likes() throws -> [Liker]
    /// `why`: the reasons `id` is in the viewer's deck, in words
    /// (`SwipeDatabase.reasons(viewer:about:)`).
    func reasons(about id: String) throws -> [String]
    /// The genders of `seeking` no profile has, in words, with those present
    /// (nil: all present).
    func unknownGenders(_ seeking: [String]) throws -> String?

    /// Conversations (Documentation/REPL.md, "Conversations"): sends `text` to `profile` under
    /// `clientID` (a retry with the same id returns the stored message).
    func send(to profile: String, text: String, clientID: String) throws -> SentMessage
    /// The last `last` messages with `profile` (all when nil), oldest
    /// first; what the viewer received is marked read.
    func read(with profile: String, last: Int?) throws -> [Message]
    /// The viewer's matches with their last message and unread count, newest first.
    func inbox() throws -> [ConversationSummary]
    /// The name of the profile with id `id`, nil when there is none.
    func name(of id: String) throws -> String?
    /// The profile with id `id`, nil when there is none (`open ID`).
    func profile(_ id: String) throws -> Profile?
    /// The ids the viewer has blocked.
    func blocked() throws -> [String]

    /// Moderation (Documentation/Moderation.md): runs a moderator's command
    /// as the viewer, refused unless they hold the role.
    func moderate(_ command: ModerationCommand) throws -> ModerationResult
    /// The viewer's standing suspension, if any, and their warnings not yet
    /// acknowledged: what a session shows first.
    func standing() throws -> (suspension: Suspension?, warnings: [ModeratorWarning])
    /// Acknowledges the viewer's warnings; returns how many there were.
    func acknowledgeWarnings() throws -> Int
    /// `query`'s rows (Documentation/Insights.md) for the viewer's own
    /// decisions, matches and conversations; with `all`, the whole
    /// market's, refused unless the viewer is a moderator.
    func insights(_ query: InsightQuery, all: Bool) throws -> [InsightRow]
    /// The viewer's matches with each conversation's message count and last
    /// message time (`matches --with-messages`).
    func matchActivity() throws -> [MatchActivity]
}

extension ViewerLedger {
    /// Undoes as `undo` does and says whether the undo ended a match (a like
    /// that had made one): the session then says so. A ledger that cannot
    /// tell says no.
    public func undoEndingMatch(_ decision: DeckDecision) throws -> Bool {
        try undo(decision)
        return false
    }

    /// A ledger that cannot look profiles up finds none.
    public func profile(_ id: String) throws -> Profile? { nil }

    /// A ledger that keeps no blocks has none.
    public func blocked() throws -> [String] { [] }

    /// A ledger without moderators has no one who may moderate.
    public func moderate(_ command: ModerationCommand) throws -> ModerationResult {
        throw StoreError.notModerator(viewer)
    }

    /// A ledger without moderators suspends and warns no one.
    public func standing() throws -> (suspension: Suspension?, warnings: [ModeratorWarning]) { (nil, []) }

    public func acknowledgeWarnings() throws -> Int { 0 }

    /// A ledger that cannot ask for a window reads the whole history and keeps the window's rows.
    public func history(about profile: String?, in window: TimeWindow) throws -> [HistoryEntry] {
        try history(about: profile).filter { window.contains($0.decidedAt) }
    }

    /// A ledger without conversations: each match, no messages.
    public func matchActivity() throws -> [MatchActivity] {
        try matches().map {
            MatchActivity(profile: $0.profile, name: $0.name, matchedAt: $0.matchedAt, messages: 0, lastMessageAt: nil)
        }
    }

    /// A ledger that keeps no history counts nothing.
    public func insights(_ query: InsightQuery, all: Bool) throws -> [InsightRow] {
        if all { throw StoreError.notModerator(viewer) }
        return []
    }
}

/// The refusal a ledger throws when the viewer already holds a decision on
/// the profile: another session (or a decisions import) decided it after
/// this deck drew the card. The session answers it by withdrawing the card.
///
/// It is also thrown when the profile is gone from the database (deleted by
/// another program while its card was on the deck): the card leaves the
/// same way, and the session goes on.
public struct DecidedElsewhere: Error, CustomStringConvertible {
    /// What happened, as the store says it.
    public var description: String
    /// The profile the viewer had already decided (or that is gone).
    public var profileID: String
    /// Where it happened, as the session's message says it after `description`.
    public var place: String

    public init(_ description: String, profileID: String, place: String = " (in another session)") {
        self.description = description
        self.profileID = profileID
        self.place = place
    }

    /// The profile is gone from the database, or as good as gone: a block
    /// between the viewer and them, made elsewhere, is answered in exactly
    /// these words, so that nobody learns from it that they were blocked.
    public static func gone(_ id: String) -> DecidedElsewhere {
        DecidedElsewhere("\(id) is no longer in the database", profileID: id, place: " (deleted by another program)")
    }
}
