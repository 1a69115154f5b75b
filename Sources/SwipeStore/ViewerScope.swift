import Foundation
import SwipeCore

/// One viewer's part of the store, as every session uses it: record and
/// undo that viewer's decisions, read their history and matches, the
/// discovery, conversation, moderation and personal-data commands, whether
/// the REPL holds the database (`DirectAccess`) or `swipe serve` borrows
/// one per call (its pool and write queue). The one type for it: there is
/// no protocol restating it and no in-memory stand-in; tests run it on
/// temporary stores.
///
/// Every caller acts through one scope bound to one viewer, so no call can
/// name another viewer by mistake. Methods throw the store's own errors,
/// except that the store's refusals of a card decided or gone meanwhile
/// become `DecidedElsewhere`, which the deck session answers by withdrawing
/// the card. What a stored write did that others must hear of is handed up
/// as a `StoreEvent`.
public struct ViewerScope {
    /// The viewer this scope acts as.
    public let viewer: String
    let access: any DatabaseAccess
    /// The viewer's name, as the events tell it to others.
    let name: String
    /// Told each `StoreEvent` once its write is stored (nil: no one to tell).
    let onEvent: ((StoreEvent) -> Void)?
    /// The time decisions and undos are stamped with; nil: the store's now.
    /// A test or a replay sets a clock of its own.
    public var clock: (() -> Date)? = nil

    /// - Parameters:
    ///   - viewer: the viewer every call acts as.
    ///   - access: how the scope reaches its database (`DirectAccess`, or a server's pool).
    ///   - name: the viewer's name as others are told it in events.
    ///   - onEvent: told what each stored write did that others must hear of.
    public init(
        viewer: String, access: any DatabaseAccess, name: String = "", onEvent: ((StoreEvent) -> Void)? = nil
    ) {
        self.viewer = viewer
        self.access = access
        self.name = name
        self.onEvent = onEvent
    }

    /// The scope over one database the caller holds.
    public init(store: any SwipeDatabase, viewer: String) {
        self.init(viewer: viewer, access: DirectAccess(store))
    }

    /// Stores `decision` (viewer: the scope's) and says when, and the match it made.
    public func record(_ decision: DeckDecision) throws -> RecordedDecision {
        let viewer = viewer
        let id = decision.profile.id
        let now = clock?()
        let stored: RecordedDecision
        do {
            stored = try access.write {
                try $0.record(viewer: viewer, profile: id, decision: decision.decision, via: decision.via, at: now)
            }
        } catch let error as StoreError {
            switch error {
            case .alreadyDecided:
                throw DecidedElsewhere(String(describing: error), profileID: id)
            case .blocked, .unknownProfile(id):
                // Blocked, either way, in another session after this deck
                // drew the card: told exactly as a card that is gone, so a
                // blocked person cannot tell a block from a deletion.
                throw DecidedElsewhere.gone(id)
            default:
                throw error
            }
        }
        if stored.match != nil {
            onEvent?(
                .matched(
                    MatchNotice(recipient: id, liker: viewer, likerName: name, matchedAt: stored.decidedAt)))
        }
        return stored
    }

    /// Stamps the viewer's latest un-undone decision about `decision.profile` as undone.
    public func undo(_ decision: DeckDecision) throws {
        _ = try undoEndingMatch(decision)
    }

    /// An undo that dissolves a match ends it for both, as an unmatch does
    /// (`StoreEvent.unmatched`: the other person's open chat closes).
    public func undoEndingMatch(_ decision: DeckDecision) throws -> Bool {
        let viewer = viewer
        let id = decision.profile.id
        let now = clock?()
        let undone = try access.write { try $0.undo(viewer: viewer, profile: id, at: now) }
        if undone.unmatched { onEvent?(.unmatched(other: id)) }
        return undone.unmatched
    }

    /// The viewer's most recent standing decision, from any session: what
    /// `undo` reaches back to once the deck's own decisions are taken back.
    public func latestStandingDecision() throws -> DeckDecision? {
        let viewer = viewer
        return try access.read { try $0.latestStandingDecision(viewer: viewer) }
    }

    /// - Throws: `StoreError.unknownProfile` when `profile` names no profile
    ///   (a typo must not read as "no decisions yet").
    public func history(about profile: String?) throws -> [HistoryEntry] {
        try history(about: profile, in: TimeWindow())
    }

    /// The window is the query's (`HistoryQuery.since`/`until`), read by the
    /// index, not filtered after reading every decision.
    public func history(about profile: String?, in window: TimeWindow) throws -> [HistoryEntry] {
        try access.read { store in
            let entries = try store.history(
                HistoryQuery(viewer: viewer, since: window.since, profile: profile, until: window.until))
            if let profile, entries.isEmpty, try store.profile(id: profile, seenBy: viewer) == nil {
                throw StoreError.unknownProfile(profile)
            }
            return entries
        }
    }

    /// The viewer's current matches, newest first.
    public func matches() throws -> [Match] {
        try access.read { try $0.matches(viewer: viewer) }
    }

    /// The viewer's profile, preferences included.
    public func viewerProfile() throws -> Profile {
        try access.read { try $0.viewerProfile(viewer) }
    }

    public func setPreferences(_ change: PreferencesChange) throws -> Profile {
        let viewer = viewer
        return try access.write { try $0.setPreferences(viewer: viewer, change) }
    }

    /// Changes one field of the viewer's own profile (`me set`).
    public func editProfile(_ edit: ProfileEdit) throws -> Profile {
        let viewer = viewer
        return try access.write { try $0.editProfile(viewer: viewer, edit, at: nil) }
    }

    /// Adds, removes or moves one of the viewer's photos (`me photo`,
    /// Documentation/Photos.md) and returns the profile as stored.
    public func changePhotos(_ change: PhotoChange) throws -> Profile {
        let viewer = viewer
        return try access.write { database in
            switch change {
            case .add(let source): try database.addPhoto(viewer: viewer, source, at: nil)
            case .remove(let position): try database.removePhoto(viewer: viewer, position: position)
            case .move(let from, let to): try database.movePhoto(viewer: viewer, from: from, to: to)
            }
        }
    }

    /// Changes the viewer's preferences as their own edit (`me set`): activity too.
    public func editPreferences(_ change: PreferencesChange) throws -> Profile {
        let viewer = viewer
        return try access.write { try $0.editPreferences(viewer: viewer, change, at: nil) }
    }

    /// Erases the viewer and every row naming them (`me erase`).
    public func erase() throws -> Erasure {
        let viewer = viewer
        let erasure = try access.write { try $0.erase(viewer: viewer, at: nil) }
        // A server's write queue committed it in a group: its files are scrubbed now, outside it.
        try? access.read { $0.scrubAfterErase() }
        onEvent?(.erased(erasure))
        return erasure
    }

    /// Everything the store holds about the viewer (`me export`): the
    /// document `swipe export` writes, read by the same rule.
    public func exportPersonalData() throws -> PersonalExport {
        let viewer = viewer
        // A write (writing nothing) as `exportPersonalData` takes the viewer's lock.
        return try access.write { try $0.exportPersonalData(viewer: viewer, at: nil) }
    }

    /// Which of these ids the viewer may still be shown (the cards in the deck).
    public func eligible(among ids: [String]) throws -> Set<String> {
        try access.read { try $0.eligible(viewer: viewer, among: ids) }
    }

    public func block(_ id: String) throws -> BlockOutcome {
        let viewer = viewer
        let outcome = try access.write { try $0.block(viewer: viewer, profile: id) }
        onEvent?(.blocked(other: id))
        return outcome
    }

    public func unblock(_ id: String) throws {
        let viewer = viewer
        try access.write { try $0.unblock(viewer: viewer, profile: id) }
    }

    public func unmatch(_ id: String) throws {
        let viewer = viewer
        try access.write { try $0.unmatch(viewer: viewer, profile: id) }
        onEvent?(.unmatched(other: id))
    }

    public func report(_ id: String, reason: String) throws -> BlockOutcome {
        let viewer = viewer
        let outcome = try access.write { try $0.report(viewer: viewer, profile: id, reason: reason) }
        onEvent?(.blocked(other: id))
        return outcome
    }

    /// The ids the viewer has blocked.
    public func blocked() throws -> [String] {
        try access.read { try $0.blocked(viewer: viewer) }
    }

    /// The viewer's matches with each conversation's message count and last
    /// message time (`matches --with-messages`).
    public func matchActivity() throws -> [MatchActivity] {
        try access.read { try $0.matchActivity(viewer: viewer) }
    }

    /// `query`'s rows (Documentation/Insights.md) for the viewer's own
    /// decisions, matches and conversations; with `all`, the whole
    /// market's, refused unless the viewer is a moderator.
    public func insights(_ query: InsightQuery, all: Bool) throws -> [InsightRow] {
        let viewer = viewer
        return try access.read { store in
            var query = query
            if all {
                guard try store.isModerator(viewer) else { throw StoreError.notModerator(viewer) }
                query.viewer = nil
            } else {
                query.viewer = viewer
            }
            return try store.insights(query)
        }
    }

    /// Moderation (Documentation/Moderation.md): runs a moderator's command
    /// as the viewer, refused unless they hold the role.
    public func moderate(_ command: ModerationCommand) throws -> ModerationResult {
        let viewer = viewer
        switch command {
        case .queue, .show, .log: return try access.read { try $0.run(command, by: viewer) }
        default: return try access.write { try $0.run(command, by: viewer) }
        }
    }

    /// The viewer's standing suspension, if any, and their warnings not yet
    /// acknowledged: what a session shows first.
    public func standing() throws -> (suspension: Suspension?, warnings: [ModeratorWarning]) {
        try access.read { (try $0.suspension(of: viewer, at: nil), try $0.pendingWarnings(viewer: viewer)) }
    }

    /// Acknowledges the viewer's warnings; returns how many there were.
    public func acknowledgeWarnings() throws -> Int {
        let viewer = viewer
        return try access.write { try $0.acknowledgeWarnings(viewer: viewer, at: nil) }
    }

    /// Who holds a standing like or superlike of the viewer (blocks excluded).
    public func likes() throws -> [Liker] {
        try access.read { try $0.likes(viewer: viewer) }
    }

    /// `why`: the reasons `id` is in the viewer's deck, in words
    /// (`SwipeDatabase.reasons(viewer:about:)`).
    public func reasons(about id: String) throws -> [String] {
        try access.read { store in
            guard try store.profile(id: id, seenBy: viewer) != nil else { throw StoreError.unknownProfile(id) }
            return try store.reasons(viewer: viewer, about: id)
        }
    }

    /// The genders of `seeking` no profile has, in words, with those present
    /// (nil: all present).
    public func unknownGenders(_ seeking: [String]) throws -> String? {
        try access.read { try $0.unknownGenders(seeking) }
    }

    /// Conversations (Documentation/REPL.md, "Conversations"): sends `text` to `profile` under
    /// `clientID` (a retry with the same id returns the stored message).
    public func send(to profile: String, text: String, clientID: String) throws -> SentMessage {
        let send = MessageSend(viewer: viewer, profile: profile, text: text, clientID: clientID)
        let sent = try access.write { try $0.send(send) }
        if !sent.isRetry { onEvent?(.messageSent(sent.message, senderName: name)) }
        return sent
    }

    /// A write: reading marks what the viewer received as read.
    public func read(with profile: String, last: Int?) throws -> [Message] {
        let query = MessageQuery(viewer: viewer, profile: profile, last: last)
        return try access.write { try $0.messages(query) }
    }

    /// The viewer's matches with their last message and unread count, newest first.
    public func inbox() throws -> [ConversationSummary] {
        try access.read { try $0.inbox(viewer: viewer) }
    }

    /// Nil for someone the viewer may not see: no such profile, or a block
    /// either way (one answer for both).
    public func name(of id: String) throws -> String? {
        try access.read { try $0.profile(id: id, seenBy: viewer)?.name }
    }

    /// Nil for someone the viewer may not see: no such profile, or a block
    /// either way (one answer for both).
    public func profile(_ id: String) throws -> Profile? {
        try access.read { try $0.profile(id: id, seenBy: viewer) }
    }
}
