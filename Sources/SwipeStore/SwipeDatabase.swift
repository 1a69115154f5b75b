import Foundation
import SwipeCore

/// The swipe database, whatever holds it: one SQLite file (`SQLiteStore`) or
/// a PostgreSQL server (`PostgresStore`), as the composition of the
/// role-sized protocols below (Fluent keeps its `Database` as small): a
/// caller that needs one role asks for that one (`any SwipeLedger`), one that
/// needs several composes them, and the REPL, `swipe serve` and the commands,
/// which need them all, take a `SwipeDatabase`. Only the executable's
/// wiring chooses the backend (a `DatabaseDriver`, from `--db`).
///
/// Every method is synchronous and may block on I/O. Both backends keep the
/// same contract, and mostly by construction: their rules are one set of
/// Swift over each backend's SQL executor (`SQLDatabase`). The store tests
/// hold the rest by running each test on both: the same values, the same
/// `StoreError`s for the same refusals, the same order of rows. Failures of
/// the backend itself (SQLite's, libpq's) come as the backend's own error
/// values, carrying the SQL and its arguments.
///
/// Not `Sendable`: a value is used from one thread at a time.
public protocol SwipeDatabase: SwipeProfiles, SwipeLedger, SwipeDiscovery, SwipeModeration, SwipeModerators,
    SwipeConversations, SwipeChangeLog, SwipeSettings,
    SwipeImport, SwipePersonalData, SwipePhotos, SwipeInsights
{
    /// Where the data is, for messages: a file path, or a URI without its password.
    var location: String { get }

    /// What opening made, when it made a new database file (SQLite only;
    /// nil otherwise): a failed first import undoes it (`DatabaseCreation.undo`).
    var creation: DatabaseCreation? { get }
}

/// Profiles: writing one, reading one or all of them.
public protocol SwipeProfiles: AnyObject {
    /// Inserts `profile`, or updates the profile with the same id in place
    /// (keeping its internal key, so decisions and the feed order survive).
    @discardableResult
    func upsert(_ profile: Profile) throws -> UpsertOutcome
    /// The profile with external id `id`, or nil.
    func profile(id: String) throws -> Profile?
    /// The profile with external id `id` as `viewer` may see it: nil when
    /// there is none or a block stands between them, either way.
    func profile(id: String, seenBy viewer: String) throws -> Profile?
    /// Whether a profile has external id `id`.
    func isProfile(_ id: String) throws -> Bool
    /// Up to `limit` ids starting with `prefix`, in id order (Tab completion).
    func profileIDs(startingWith prefix: String, limit: Int) throws -> [String]
    /// Calls `body` with each profile `query` selects, in internal-key order,
    /// one at a time (memory stays flat however many there are).
    func forEachProfile(_ query: ProfileQuery, _ body: (Profile) throws -> Void) throws
    /// `forEachProfile` as the stored row itself: columns 0…13 in
    /// `StoreRecords.profileColumns` order, `photos` and `interests` as their
    /// stored JSON arrays, for output that streams millions without a `Profile` each.
    func forEachProfileRow(_ query: ProfileQuery, _ body: (any StoredRow) throws -> Void) throws
}

/// The decision ledger: what a viewer decided, the matches it made, the counts.
public protocol SwipeLedger: AnyObject {
    /// Records that `viewer` decided `decision` about `profile` at `date`
    /// (now when nil), and makes the match when both sides now like each
    /// other, in one transaction: two mutual likes at the same instant make
    /// exactly one match.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfDecision`, `.alreadyDecided`,
    ///   `.blocked`, `.quotaExceeded`, `.notStored`.
    func record(viewer: String, profile: String, decision: Decision, via: Via, at date: Date?) throws
        -> RecordedDecision
    /// Stamps the viewer's standing decision about `profile` as undone (and
    /// ends the match it made).
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notDecided`, `.rewindRefused`.
    func undo(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision
    /// The viewer's decisions, newest first.
    func history(_ query: HistoryQuery) throws -> [HistoryEntry]
    /// The viewer's most recent standing (not undone) decision, with the
    /// profile it was about: what `undo` reaches back to past a session.
    func latestStandingDecision(viewer: String) throws -> DeckDecision?
    /// The ids the viewer holds a standing decision about.
    func decidedProfileIDs(viewer: String) throws -> [String]
    /// The viewer's standing matches, newest first.
    func matches(viewer: String) throws -> [Match]
    /// Likes the viewer passed on (a match that did not happen).
    func missedMatches(viewer: String) throws -> [MissedMatch]

    func stats() throws -> StoreStats
    func stats(viewer: String) throws -> ViewerStats

    /// Runs `jobs` in turn, each a few calls of this protocol that may write,
    /// committed together where the backend gains by it: on SQLite one
    /// transaction with each job its own savepoint (group commit: one commit
    /// for the decisions that arrive together). Each job succeeds or fails
    /// alone (its outcome, nil for success, in `jobs`' order); nothing is
    /// durable before this returns. Throws when the batch as a whole failed
    /// (its commit): then no job's writes are stored.
    ///
    /// The default runs each job on its own, as if called one by one.
    func writeBatch(_ jobs: [() throws -> Void]) throws -> [(any Error)?]
}

/// Discovery: what a viewer is shown and who likes them.
public protocol SwipeDiscovery: AnyObject {
    /// Changes the viewer's preferences and returns the profile as stored.
    func setPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile
    /// Which of `candidates` the viewer may still be shown.
    func eligible(viewer: String, among candidates: [String]) throws -> Set<String>
    /// Who holds a standing like or superlike of the viewer (blocks excluded).
    func likes(viewer: String) throws -> [Liker]
    /// The deck's feed for `viewer` (README "Discovery"), who must be a profile.
    func feed(viewer: String) throws -> any ProfileFeed
    /// The same feed, dealing from and counting into `memory` (the batch
    /// carried across fetches by a caller that makes a feed per fetch).
    func feed(viewer: String, memory: Ranking.FeedMemory) throws -> any ProfileFeed
    /// The next `limit` cards of that feed when dealing them writes nothing
    /// (they come from `memory`'s batch, no liker waits, the viewer was
    /// stamped active); nil when the fetch must write: then it goes through
    /// `feed(viewer:memory:)` as a write. A server deals most cards this way,
    /// beside its writer (SQLite's one writer is not taken for a read).
    func dealWithoutWriting(viewer: String, memory: Ranking.FeedMemory, limit: Int, excluding: Set<String>) throws
        -> [Profile]?
    /// Counts the impressions `memory` noted and not counted yet (a write):
    /// its owner does when the deck closes (`FeedMemory.countedByOwner`).
    func countImpressions(viewer: String, memory: Ranking.FeedMemory) throws
    /// Refits the ranking's model (`Ranking.Fit`) from the latest standing
    /// decisions and stores it (a bounded batch; `SQLDatabase.refitRanking`).
    /// - Parameters:
    ///   - ridge: The penalty on each appeal and generosity.
    ///   - limit: At most this many decisions are fitted.
    ///   - date: When it runs (now when nil).
    /// - Returns: The fit stored.
    @discardableResult
    func refitRanking(ridge: Double, limit: Int, at date: Date?) throws -> Ranking.Fit
    /// Whether the stored fit is due again: never fitted while there are
    /// decisions, or `every` decisions made since (`SQLDatabase.rankingFitIsStale`).
    /// - Parameter every: Decisions after the fit that make it stale.
    func rankingFitIsStale(every: Int) throws -> Bool
}

extension SwipeDiscovery {
    /// A store whose feed keeps nothing between fetches ignores `memory`.
    public func feed(viewer: String, memory: Ranking.FeedMemory) throws -> any ProfileFeed {
        try feed(viewer: viewer)
    }

    /// A store with no way to deal without writing always writes.
    public func dealWithoutWriting(viewer: String, memory: Ranking.FeedMemory, limit: Int, excluding: Set<String>)
        throws -> [Profile]?
    { nil }

    /// A store whose feed keeps nothing between fetches has nothing to count.
    public func countImpressions(viewer: String, memory: Ranking.FeedMemory) throws {}
}

/// Moderation: blocks, unmatch, reports.
public protocol SwipeModeration: AnyObject {
    func block(viewer: String, profile: String, at date: Date?) throws -> BlockOutcome
    func unblock(viewer: String, profile: String) throws
    func unmatch(viewer: String, profile: String, at date: Date?) throws
    func report(viewer: String, profile: String, reason: String, at date: Date?) throws -> BlockOutcome
    func reports() throws -> [Report]
    /// What a report keeps of the pair's conversation: its last `limit`
    /// messages sent before `report` was made, oldest first. (Messages are
    /// never deleted, and a report blocks, so nothing is sent after it.)
    func transcript(of report: Report, limit: Int) throws -> [Message]
    func blocked(viewer: String) throws -> [String]
}

/// The moderators' tools (Documentation/Moderation.md): `moderator` is a
/// profile holding the role, or nil for the operator (whoever can open the
/// database). Each action writes its line of the append-only log with it.
public protocol SwipeModerators: AnyObject {
    func isModerator(_ id: String) throws -> Bool
    func grantModerator(_ id: String, by moderator: String?, at date: Date?) throws
    func revokeModerator(_ id: String, by moderator: String?, at date: Date?) throws
    @discardableResult
    func ban(_ id: String, reason: String, days: Int?, by moderator: String?, at date: Date?) throws -> Suspension
    func unban(_ id: String, by moderator: String?, at date: Date?) throws
    /// The suspension standing for `id` at `date` (now when nil).
    func suspension(of id: String, at date: Date?) throws -> Suspension?
    @discardableResult
    func warn(_ id: String, reason: String, by moderator: String?, at date: Date?) throws -> ModeratorWarning
    func pendingWarnings(viewer: String) throws -> [ModeratorWarning]
    @discardableResult
    func acknowledgeWarnings(viewer: String, at date: Date?) throws -> Int
    @discardableResult
    func removePhoto(of id: String, position: Int, reason: String, by moderator: String?, at date: Date?) throws
        -> Profile
    func resolve(_ item: String, note: String, by moderator: String?, at date: Date?) throws
    func moderationQueue(by moderator: String?) throws -> [QueueItem]
    func queueEvidence(_ item: String, by moderator: String?) throws -> QueueEvidence
    func moderationLog() throws -> [ModerationLogEntry]
}

/// Settings and rules kept in the database.
public protocol SwipeSettings: AnyObject {
    /// The viewer last used in a REPL session with this database.
    func lastViewer() throws -> String?
    func setLastViewer(_ viewer: String) throws
    func rules() throws -> Rules
    /// Sets one rule by its name and text value and returns them all.
    func setRule(_ name: String, _ value: String) throws -> Rules
    /// The secret that signs `swipe serve` links; made on first use when `create`.
    func accessSecret(create: Bool) throws -> String?
    /// The viewer's sign-in generation: tokens signed over an older one are void.
    func signInGeneration(viewer: String) throws -> Int
    /// Each of `viewers` that is a profile, with their generation and standing suspension at `date`.
    func signInStates(of viewers: [String], at date: Date?) throws -> [String: SignInState]
    /// Voids `viewer`'s sign-in links (all of them, by replacing the secret, when nil).
    func revokeSignIns(viewer: String?) throws
}

/// Bulk loading from CSV files (`swipe import`).
public protocol SwipeImport: AnyObject {
    /// Loads profiles from the CSV file at `path` (`-`: standard input), all
    /// rows or none unless `options.skipInvalid`.
    func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary
    /// Loads past decisions (`viewer,profile,decision,decided_at[,via]`).
    func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary
}

/// Conversations (Documentation/REPL.md, "Conversations"): a standing match's pair writes to each
/// other; each conversation is ordered by the store, each send stored
/// exactly once by its client id.
public protocol SwipeConversations: AnyObject {
    /// Stores a message from `send.viewer` to `send.profile`, or returns the
    /// one an earlier attempt with the same client id stored.
    ///
    /// - Throws: `StoreError.messageRefused` naming the rule (no match, an
    ///   ended or expired one, first-move, first-messages-per-day, length),
    ///   `.unknownProfile`, `.selfAction`, `.notStored`.
    func send(_ send: MessageSend) throws -> SentMessage
    /// The conversation of `query.viewer` with `query.profile`, oldest
    /// first, marking what the viewer received read when `query.markRead`.
    ///
    /// - Throws: `StoreError.messageRefused` (`.notMatched`, `.ended`), `.unknownProfile`.
    func messages(_ query: MessageQuery) throws -> [Message]
    /// The viewer's standing matches with their last message and unread
    /// count, the newest activity first; expired ones are marked so.
    func inbox(viewer: String, at date: Date?) throws -> [ConversationSummary]
}

/// The decisions and messages in the order of their keys, as a serving
/// process reads what other processes stored (a REPL, `swipe send`, `swipe
/// import --decisions`, another `swipe serve`) to push it to open sockets.
public protocol SwipeChangeLog: AnyObject {
    /// The newest key of each log (0 when empty).
    func changeMarks() throws -> ChangeMarks
    /// Up to `limit` decisions with keys above `key`, in key order, each
    /// with the match it made if that match still stands.
    func decisions(after key: Int, limit: Int) throws -> [ChangedDecision]
    /// Up to `limit` messages with keys above `key`, in key order.
    func messages(after key: Int, limit: Int) throws -> [ChangedMessage]
}

// A person's data is `SwipePersonalData` (PersonalData.swift). The next
// roles: each a protocol of its own, its rules in `SQLDatabase` extensions,
// added to `SwipeDatabase`.

/// What an upsert did. `unchanged`: the profile was already stored exactly so.
public enum UpsertOutcome: Sendable { case inserted, updated, unchanged }

/// How an import runs, whatever the backend.
public struct ImportOptions {
    /// Import the valid rows and report the others, instead of importing nothing.
    public var skipInvalid = false
    /// Skip header columns swipe does not know (`--ignore-unknown`), named
    /// in `ImportSummary.ignoredColumns`, instead of refusing the file.
    public var ignoreUnknown = false
    /// Called about every `progressInterval` rows and once at the end.
    public var progress: ((ImportProgress) -> Void)?
    public var progressInterval = 500
    /// Checked between rows; when it returns true the import rolls back and
    /// throws `ImportInterrupted` (the executable sets it from SIGINT).
    public var shouldStop: () -> Bool = { false }
    /// Registers `action` to run, on another thread, as soon as a stop is
    /// requested (at once if one already was), until the returned closure is
    /// called. It is how a backend cuts short a statement already running (a
    /// PostgreSQL cancel request), which `shouldStop` alone cannot: it is
    /// read only between rows and statements. The executable sets it from SIGINT.
    public var onStopRequest: (@escaping @Sendable () -> Void) -> (() -> Void) = { _ in {} }

    public init(
        skipInvalid: Bool = false, progress: ((ImportProgress) -> Void)? = nil, progressInterval: Int = 500,
        shouldStop: @escaping () -> Bool = { false }
    ) {
        self.skipInvalid = skipInvalid
        self.progress = progress
        self.progressInterval = progressInterval
        self.shouldStop = shouldStop
    }
}

/// One stored profile row, read in place (SQLite's `Row`, a PostgreSQL
/// result row): `forEachProfileRow` hands these out so that output need not
/// build a `String` per field.
public protocol StoredRow {
    func isNull(_ column: Int32) -> Bool
    func int(_ column: Int32) -> Int
    func double(_ column: Int32) -> Double
    /// The column's bytes (UTF-8 for text), valid until `body` returns; nil for NULL.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>?
}

extension SwipeLedger {
    public func writeBatch(_ jobs: [() throws -> Void]) throws -> [(any Error)?] {
        jobs.map { job in
            do {
                try job()
                return nil
            } catch {
                return error
            }
        }
    }

    // Defaults for the trailing arguments a protocol requirement cannot default.
    public func record(viewer: String, profile: String, decision: Decision, via: Via) throws -> RecordedDecision {
        try record(viewer: viewer, profile: profile, decision: decision, via: via, at: nil)
    }
    @discardableResult
    public func undo(viewer: String, profile: String) throws -> UndoneDecision {
        try undo(viewer: viewer, profile: profile, at: nil)
    }
}

extension SwipeConversations {
    public func inbox(viewer: String) throws -> [ConversationSummary] { try inbox(viewer: viewer, at: nil) }
}

extension SwipeModeration {
    @discardableResult
    public func block(viewer: String, profile: String) throws -> BlockOutcome {
        try block(viewer: viewer, profile: profile, at: nil)
    }
    public func unmatch(viewer: String, profile: String) throws {
        try unmatch(viewer: viewer, profile: profile, at: nil)
    }
    @discardableResult
    public func report(viewer: String, profile: String, reason: String) throws -> BlockOutcome {
        try report(viewer: viewer, profile: profile, reason: reason, at: nil)
    }
}

extension SwipeProfiles {
    /// The viewer's profile, preferences included.
    public func viewerProfile(_ viewer: String) throws -> Profile {
        guard let profile = try profile(id: viewer) else { throw StoreError.unknownProfile(viewer) }
        return profile
    }

    public func forEachProfile(_ body: (Profile) throws -> Void) throws { try forEachProfile(.all, body) }
}

extension SwipeSettings where Self: SwipeProfiles {
    /// The viewer to act as: `requested` (the caller's choice, nil or empty
    /// for none), else the last one used with this database. The chosen
    /// viewer must be a profile. Nothing is written: only a REPL session,
    /// where a person acts as someone, remembers its viewer
    /// (`setLastViewer`); reading someone's history must not make the next
    /// session act as them.
    ///
    /// - Throws: `ViewerError.noneChosen` or `ViewerError.notAProfile`.
    public func resolveViewer(_ requested: String?) throws -> String {
        let chosen: String
        if let requested, !requested.isEmpty {
            chosen = requested
        } else if let last = try lastViewer() {
            chosen = last
        } else {
            throw ViewerError.noneChosen
        }
        guard try isProfile(chosen) else { throw ViewerError.notAProfile(chosen) }
        return chosen
    }
}

extension SwipeDatabase {
    /// Refits the ranking's model as the shipped feed reads it: `ridge`
    /// (the shipped model's unless given) over at most the latest
    /// `Ranking.fitDecisions` decisions, at `date` (now when nil).
    @discardableResult
    public func refitRanking(ridge: Double = Ranking.Model.standard.fitRidge, at date: Date? = nil) throws
        -> Ranking.Fit
    {
        try refitRanking(ridge: ridge, limit: Ranking.fitDecisions, at: date)
    }

    /// The refit at the end of a decisions import, on every backend: when
    /// the import stored or changed a decision and the shipped model reads
    /// the fit (`Ranking.keepsFit`), the ledger as it now stands is refitted
    /// (a bounded batch), so the next feed ranks by it.
    package func refitAfterImport(_ summary: ImportSummary) throws {
        if Ranking.keepsFit, summary.inserted + summary.updated > 0 { try refitRanking() }
    }
}
