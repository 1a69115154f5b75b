import SwipeCore
import SwipeSession
import SwipeStore
import Synchronization

/// One WebSocket's deck: the REPL's own session (parser, deck, ledger)
/// answering in JSON, so the server is one more driver of `ReplSession`,
/// not a second implementation of the commands.
///
/// Each answer is built as a value and encoded once. Besides the REPL's
/// members it carries `profiles`: the profile of each card this socket has
/// not been sent yet, so a page can draw card faces from `cards`, which
/// name profiles by id only.
///
/// What a socket tells of another person is what the page shows
/// (`JSONValue.peerProfile`): never their place or preferences, and a
/// distance from a coarsened place. The viewer's own changes of
/// preferences are rationed (`mayChangePreferences`), so that moving one's
/// place step by step cannot map anyone, and a card whose person blocked
/// the viewer (or was blocked) elsewhere leaves the deck as a card that is
/// gone (`withdrawSoon`, and a check before its detail page opens).
///
/// The socket runs one command at a time (each finishes before the next
/// frame is read), on whichever thread is free; the mutex makes that safe
/// to state rather than to promise.
public final class SocketSession: Sendable {
    private struct State {
        var repl: ReplSession
        var sentProfiles: Set<String> = []
        /// The viewer's place, from which the distances shown are measured.
        var place: Location?
    }

    private let state: Mutex<State>
    /// Cards to take out before the next command that may reach the store
    /// (taking one out refills its slot from the feed). A mutex of its own:
    /// other sockets' threads add to it while this one runs a command.
    private let withdrawals = Mutex<Set<String>>([])
    private let mayChangePreferences: @Sendable () -> Bool
    /// A photo item of another person as this viewer is handed it: a stored
    /// photo's path with its grant (`PhotoGrant`).
    private let photoPath: @Sendable (String) -> String
    /// The viewer's name when the socket opened (the page's "Signed in as").
    public let viewerName: String?
    /// Whether the viewer held the moderator role when the socket opened
    /// (the page then offers its Moderation view; the store asks again on
    /// every command).
    public let isModerator: Bool
    /// The viewer's warnings not yet acknowledged when the socket opened.
    public let warnings: [ModeratorWarning]
    /// Whom this viewer's page may know as a match (from the session's
    /// open, its answers and the matches pushed to it): whose erasure by
    /// another process it is told of (`SwipeServer.sweepErasures`). More
    /// than that is harmless, the people are checked gone before anything
    /// is told.
    private let partners = Mutex<Set<String>>([])

    /// The refusal of a change of preferences past the viewer's budget.
    static let tooManyChanges =
        "your preferences, place, age or gender have changed too often; try again in a few minutes"

    /// What the deck leaves to do when the socket closes (its feed's
    /// impressions counted); run once, by `close()`.
    private let onClose: Mutex<(@Sendable () -> Void)?>

    init(
        _ repl: sending ReplSession, place: Location?, viewerName: String? = nil, isModerator: Bool = false,
        warnings: [ModeratorWarning] = [], photoPath: @escaping @Sendable (String) -> String = { $0 },
        mayChangePreferences: @escaping @Sendable () -> Bool, onClose: (@Sendable () -> Void)? = nil
    ) {
        state = Mutex(State(repl: repl, place: place))
        self.viewerName = viewerName
        self.isModerator = isModerator
        self.warnings = warnings
        self.photoPath = photoPath
        self.mayChangePreferences = mayChangePreferences
        self.onClose = Mutex(onClose)
    }

    /// The socket closed: the deck's last writes (the impressions of the
    /// cards it was dealt and no ranking counted yet). Blocks on the store:
    /// call it on the thread pool. A second call does nothing.
    public func close() {
        let pending = onClose.withLock { close in
            defer { close = nil }
            return close
        }
        pending?()
    }

    /// Whether `line` may run on an event loop: it will not reach the store
    /// (`ReplSession.answersWithoutTheStore`: a drag, a release that springs
    /// back, the deck, help) and no card waits to be taken out. In a chat
    /// (`chat ID`) every line may reach the store (a message, `/report`),
    /// whatever it parses as.
    public func runsInline(_ line: ReplLine) -> Bool {
        withdrawals.withLock { $0.isEmpty } && state.withLock { $0.repl.answersWithoutTheStore(line) }
    }

    /// The word `/metrics` counts `line` under: the command's verb, or in a
    /// chat what the chat makes of it (`chat-message`, `/report`, …).
    public func verb(of line: ReplLine) -> String {
        state.withLock { $0.repl.verb(of: line) }
    }

    /// Takes `id`'s card out of this deck before the next command, as a
    /// card that is gone: a block made in another session, either way.
    public func withdrawSoon(_ id: String) {
        withdrawals.withLock { _ = $0.insert(id) }
    }

    /// Notes people this viewer matched (`partners`).
    public func notePartners(_ ids: some Sequence<String>) {
        partners.withLock { $0.formUnion(ids) }
    }

    /// Forgets a match that ended (an unmatch, a block, an erasure told).
    public func forgetPartner(_ id: String) {
        _ = partners.withLock { $0.remove(id) }
    }

    public var partnerIDs: Set<String> { partners.withLock { $0 } }

    /// The people this socket's deck holds: its cards and the detail page
    /// open. Whose erasure takes their card out (`withdrawSoon`).
    public var heldProfiles: Set<String> {
        state.withLock { state in
            Set(state.repl.snapshot.cards.compactMap { $0.profile?.id } + [state.repl.viewing?.id].compactMap { $0 })
        }
    }

    /// Runs one command line; returns its answer, one JSON object, no newline.
    public func run(_ line: ReplLine) -> String {
        answer(line).text
    }

    /// Runs one command line: its answer, and what `/metrics` counts of it.
    public func answer(_ line: ReplLine) -> SocketAnswer {
        // Taken out first whatever the line (`runsInline` sends a line here
        // from the thread pool when one waits; one that arrives meanwhile
        // costs an event loop one feed fetch, rarely).
        let pending: [String] = withdrawals.withLock { taken in
            defer { taken.removeAll() }
            return taken.sorted()
        }
        let mayChange = mayChangePreferences
        let photoPath = photoPath
        return state.withLock { state in
            if !pending.isEmpty { try? state.repl.withdraw(pending) }
            let place = state.place
            let show = { (profile: Profile) in JSONValue.peerProfile(profile, seenFrom: place, photoPath: photoPath) }
            var members: [(String, JSONValue)]
            switch line.input {
            case .discovery(.prefs(_?))? where !mayChange():
                members = state.repl.jsonRefusal(line, message: Self.tooManyChanges, profile: show)
            case .me(.set(let field, _))? where field.isPreference && !mayChange():
                // The place and preferences through `me set` are rationed as through `prefs`.
                members = state.repl.jsonRefusal(line, message: Self.tooManyChanges, profile: show)
            case .event(.open)? where state.repl.isTopCardGone():
                members = state.repl.jsonGone(line, profile: show)
            default:
                members = state.repl.jsonAnswer(line, profile: show)
            }
            if Self.mayMovePlace(line.input), let me = try? state.repl.ledger.viewerProfile(),
                me.location != state.place
            {
                // Every card's distance changed: the page is sent them again.
                state.place = me.location
                state.sentProfiles = []
            }
            var fresh = state.repl.snapshot.cards.compactMap(\.profile).filter { !state.sentProfiles.contains($0.id) }
            // The people a list names (matches, inbox, likes) come with their
            // faces too, the first time: the page draws their photos, not
            // their initials. Each is read as the viewer may see them.
            for id in Self.listedPeople(members)
            where !state.sentProfiles.contains(id)
                && !fresh.contains(where: { $0.id == id })
            {
                if let profile = try? state.repl.ledger.profile(id) { fresh.append(profile) }
            }
            if !fresh.isEmpty {
                state.sentProfiles.formUnion(fresh.map(\.id))
                let place = state.place
                members.append(
                    ("profiles", .array(fresh.map { JSONValue.peerProfile($0, seenFrom: place, photoPath: photoPath) }))
                )
            }
            let answer = SocketAnswer(members)
            if !answer.partners.isEmpty { notePartners(answer.partners) }
            return answer
        }
    }

    public func run(_ line: String) -> String {
        run(ReplLine(line))
    }

    /// Whether the session has ended (`me erase`): the socket closes after its answer.
    public var isFinished: Bool { state.withLock { $0.repl.isFinished } }

    /// The ids a list in an answer names: `matches`, `inbox` and `likes` rows' `profile`.
    static func listedPeople(_ members: [(String, JSONValue)]) -> [String] {
        var ids: [String] = []
        for case (let key, .array(let rows)) in members where ["matches", "inbox", "likes"].contains(key) {
            for case .object(let fields) in rows {
                if case .string(let id)? = fields.first(where: { $0.0 == "profile" })?.1, !ids.contains(id) {
                    ids.append(id)
                }
            }
        }
        return ids
    }

    /// Whether `input` may have moved the viewer's place (`prefs location`, `me set place`).
    static func mayMovePlace(_ input: Command?) -> Bool {
        switch input {
        case .discovery(.prefs(.location?))?, .me(.set(.place, _))?: true
        default: false
        }
    }
}

/// One command's answer as sent (`text`), and what the server counts of it.
public struct SocketAnswer: Sendable {
    /// The JSON object, one line.
    public let text: String
    /// Its `ok`.
    public let ok: Bool
    /// The decision it stored (`like`, `hate`, `superlike`), if any.
    public let decision: String?
    /// Whether that decision made a match.
    public let matched: Bool
    /// The matches it tells the page of: its `matches` or `inbox` list, or
    /// the person a decision matched.
    public let partners: [String]

    init(_ members: [(String, JSONValue)]) {
        text = JSONValue.object(members).serialized
        var ok = false
        var decision: String?
        var decided: String?
        var matched = false
        var partners: [String] = []
        func word(_ name: String, of fields: [(String, JSONValue)]) -> String? {
            if case .string(let word)? = fields.first(where: { $0.0 == name })?.1 { return word }
            return nil
        }
        for (key, value) in members {
            switch (key, value) {
            case ("ok", .bool(let flag)): ok = flag
            case ("decision", .object(let fields)):
                decision = word("decision", of: fields)
                decided = word("profile", of: fields)
            case ("match", .bool(let flag)): matched = flag
            case ("matches", .array(let rows)), ("inbox", .array(let rows)):
                for case .object(let fields) in rows { if let id = word("profile", of: fields) { partners.append(id) } }
            default: break
            }
        }
        if matched, let decided { partners.append(decided) }
        self.ok = ok
        self.decision = decision
        self.matched = matched
        self.partners = partners
    }
}
