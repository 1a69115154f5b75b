import Foundation
import SwipeCore
import SwipeStore

/// One REPL session: a deck over a feed, the viewer's ledger, and the output
/// format. It runs one line at a time and writes the answer to any
/// `TextOutputStream`, so tests read exactly what a person (or a UI reading
/// JSON) would; a driver that adds to the JSON answer (the server) takes it
/// as a value instead (`jsonAnswer`).
///
/// Decisions reach the ledger while the deck handles the event (its
/// recorder runs before the slot is refilled), so every decision is stored
/// before its answer is printed. Errors of any kind print a message, change
/// nothing and leave the session running.
public struct ReplSession {
    public internal(set) var controller: DeckController<AnyProfileFeed>
    public let ledger: ViewerScope
    public var format: ReplFormat
    /// How text answers draw the deck: width, view, whether at all.
    public var layout = ReplLayout()
    /// Set by `quit`; the driver stops reading.
    public internal(set) var isFinished = false
    /// The match whose conversation is open (`chat ID`): typed lines are sent to them.
    public internal(set) var chat: ChatPartner?
    /// The person whose detail page `open ID` shows: `like`, `hate`,
    /// `superlike` and `block` act on them, `back` closes it.
    public internal(set) var viewing: Profile?
    /// How a failure that is not a refusal of the rules (the store's own
    /// failures: SQL, connections, files) is worded; nil words it as it
    /// describes itself, for the database's owner at their terminal. A
    /// server sets it to log the detail and tell the client a neutral line.
    public var internalFailure: ((any Error) -> String)?
    /// Whether `me photo add FILE` may read a file on this machine: the REPL
    /// and `swipe me` may; a socket's session (`swipe serve`) may not, as a
    /// remote page must never name a file on the server.
    public var readsPhotoFiles = true
    /// Whether `me export FILE` may write a file on this machine: the REPL
    /// may; a socket's session may not (its page downloads `/me/export`,
    /// and `me export` without a file answers the document itself).
    public var writesFiles = true
    /// What `listen` has already told (or this session itself did): the
    /// matches and the newest message of each conversation.
    package var heard = Heard()

    public init(controller: DeckController<AnyProfileFeed>, ledger: ViewerScope, format: ReplFormat) {
        self.controller = controller
        self.ledger = ledger
        self.format = format
    }

    /// A session whose deck draws from `feed`.
    public init(feed: some ProfileFeed, physics: PhysicsKind = .tantan, ledger: ViewerScope, format: ReplFormat)
        throws
    {
        self.init(
            controller: try DeckController(feed: AnyProfileFeed(feed), physics: physics), ledger: ledger,
            format: format)
    }

    public var snapshot: DeckSnapshot { controller.snapshot }

    /// Runs one input line and returns its JSON-mode answer as a value (the
    /// members of its one object), whatever `format` is. `profile` writes
    /// the profile of an open detail page (`detail`): a driver that speaks
    /// to someone other than the database's owner shows less of it.
    public mutating func jsonAnswer(_ line: ReplLine, profile: (Profile) -> JSONValue) -> [(String, JSONValue)] {
        let outcome = perform(line)
        return Self.jsonMembers(outcome, command: line.text, snapshot: snapshot, profile: profile) + line.objectMembers
    }

    /// A refusal the driver decided before running `line` (the server's
    /// budgets): `ok` false, `message`, and the deck as it is.
    public func jsonRefusal(_ line: ReplLine, message: String, profile: (Profile) -> JSONValue)
        -> [(String, JSONValue)]
    {
        Self.jsonMembers(
            .failure(Refusal(.budget, message: message), deck: nil), command: line.text, snapshot: snapshot,
            profile: profile)
            + line.objectMembers
    }

    /// The top card is no longer the viewer's to see (blocked, either way,
    /// or gone since it was dealt); checked before its detail page opens.
    public func isTopCardGone() -> Bool {
        guard case .deck = snapshot.mode, let id = snapshot.cards.first?.profile?.id,
            let eligible = try? ledger.eligible(among: [id])
        else { return false }
        return !eligible.contains(id)
    }

    /// Takes the top card out as a card that is gone (`isTopCardGone`) and
    /// answers `line` with the same refusal as an action on it would get.
    public mutating func jsonGone(_ line: ReplLine, profile: (Profile) -> JSONValue) -> [(String, JSONValue)] {
        guard let id = snapshot.cards.first?.profile?.id else { return jsonAnswer(line, profile: profile) }
        return Self.jsonMembers(
            withdraw(after: .gone(id)), command: line.text, snapshot: snapshot, profile: profile)
            + line.objectMembers
    }

    /// Takes these cards out of the deck undecided (a block made elsewhere);
    /// the feed refills their slots.
    public mutating func withdraw(_ ids: [String]) throws {
        _ = try withdrawCards(ids)
    }

    /// Performs `line`: what the answer shows, or why it failed.
    package mutating func perform(_ line: ReplLine) -> Outcome {
        if line.isUndecodable, case .failure(let refusal) = line.parsed {
            return .failure(Refusal(.command(refusal), message: refusal.message), deck: nil)
        }
        // In a chat a typed line is the chat's; a command object is a command (`perform(_:)`).
        if let partner = chat, line.cmd == nil { return performInChat(line.text, with: partner) }
        switch line.parsed {
        case .success(nil): return .blank
        case .success(let command?): return perform(command)
        case .failure(let refusal): return .failure(Refusal(.command(refusal), message: refusal.message), deck: nil)
        }
    }

    /// Runs `command` against the deck and the store: the typed entry point
    /// for an app that embeds swipe (the REPL and the socket reach it through
    /// `perform`). In an open chat a command acts as it does on the deck,
    /// and `back` leaves the chat.
    public mutating func perform(_ command: Command) -> Outcome {
        if let partner = chat, case .event(.close) = command { return performInChat("/back", with: partner) }
        do {
            let answer = try execute(command)
            heard.absorb(answer)
            return .answer(answer)
        } catch let refusal as DecidedElsewhere {
            return withdraw(after: refusal)
        } catch {
            return .failure(refusal(for: error), deck: nil)
        }
    }

    /// `error` as a typed refusal, worded as the client is told it (`describe`).
    package func refusal(for error: any Error) -> Refusal {
        Refusal(Refusal.Reason(error), message: describe(error))
    }

    /// What a session shows first (Documentation/Moderation.md): the
    /// viewer's standing suspension, and each warning not yet acknowledged.
    public func standingLines() -> [String] {
        guard let (suspension, warnings) = try? ledger.standing() else { return [] }
        var lines: [String] = []
        if let suspension {
            lines.append(ModerationText.suspended(reason: suspension.reason, until: suspension.endsAt))
        }
        if !warnings.isEmpty { lines += ModerationText.warnings(warnings).split(separator: "\n").map(String.init) }
        return lines.map { TerminalText.sanitized($0) }
    }

    /// An error as the client is told it (`internalFailure`).
    package func describe(_ error: any Error) -> String {
        if let internalFailure, !Self.isRefusal(error) { return internalFailure(error) }
        return Self.message(for: error)
    }

    /// Whether `error` is a refusal worded for the person acting (a typo,
    /// the deck's rules, the store's rules), not a failure of the machinery.
    package static func isRefusal(_ error: any Error) -> Bool {
        if case .failure = Refusal.Reason(error) { false } else { true }
    }

    /// Another session for the same viewer (or a decisions import) decided
    /// the top card after this deck drew it, so the store refused this
    /// decision and the deck went back to where it was. The card leaves the
    /// deck without a decision (`DeckEvent.withdraw`), and so does any other
    /// card in the deck the viewer has decided meanwhile: the feed skips
    /// decided profiles, but these were drawn before. `undo` keeps its history.
    /// Whether the viewer holds a standing decision about `id`; none about
    /// someone they may no longer see (gone, or a block either way).
    private func standingHistory(about id: String) throws -> Bool {
        do {
            return try ledger.history(about: id).contains { $0.undoneAt == nil }
        } catch StoreError.unknownProfile {
            return false
        }
    }

    private mutating func withdraw(after refusal: DecidedElsewhere) -> Outcome {
        var message = refusal.description + refusal.place + "; that card leaves the deck"
        var actions: [DeckAction] = []
        do {
            var others: [String] = []
            for id in snapshot.cards.compactMap({ $0.profile?.id }) where id != refusal.profileID {
                if try standingHistory(about: id) { others.append(id) }
            }
            for id in [refusal.profileID] + others {
                actions += try controller.handle(.withdraw(id)) { _ in }.actions
            }
            if !others.isEmpty {
                message +=
                    ", and so " + (others.count == 1 ? "does " : "do ") + others.joined(separator: ", ")
                    + ", decided there too"
            }
        } catch {
            return .failure(
                Refusal(.decidedElsewhere(refusal), message: message + "; taking it out failed: " + describe(error)),
                deck: nil)
        }
        var deck = ReplAnswer(snapshot: snapshot)
        deck.actions = actions
        deck.showsDeck = true
        return .failure(Refusal(.decidedElsewhere(refusal), message: message), deck: deck)
    }

    /// Whether answering `line` needs no store: by its kind
    /// (`ReplLine.touchesNoStore`: a drag, the deck, help), or as a deck
    /// event the deck settles alone now (a release that springs back, a
    /// cancel; `DeckController.wouldAskTheStore`). Never in a chat or on a
    /// viewed profile, where lines act on a person; never `undo`, which may
    /// look the viewer's latest decision up.
    public func answersWithoutTheStore(_ line: ReplLine) -> Bool {
        guard chat == nil else { return false }
        if line.touchesNoStore { return true }
        guard viewing == nil, case .event(let event)? = line.input else { return false }
        if case .undo = event { return false }
        return !controller.wouldAskTheStore(event)
    }

    /// Performs `input` and gathers what the answer shows.
    package mutating func execute(_ input: Command) throws -> ReplAnswer {
        if viewing != nil, let answer = try actOnViewed(input) { return answer }
        // An event answers with the deck after it: the deck before is not drawn for it.
        if case .event(let event) = input { return try send(event) }
        var answer = ReplAnswer(snapshot: snapshot)
        switch input {
        case .listed(let command):
            return try executeListed(command)
        case .event:
            preconditionFailure("an event is answered above, before the deck as it was is drawn")
        case .deck:
            answer.showsDeck = true
            answer.asked = true
        case .view(let view):
            if let view {
                layout.view = view
                answer.showsDeck = true
            }
            answer.note =
                "view " + layout.view.rawValue + ": "
                + (layout.view == .full
                    ? "the picture, then every card's pose"
                    : "the picture and one line of numbers (view full adds every card's pose)")
        case .history(let profile):
            answer.history = try ledger.history(about: profile)
        case .matches:
            answer.matches = try ledger.matches()
        case .matchesWithMessages:
            answer.matchActivity = try ledger.matchActivity()
        case .help(let topic):
            answer.help = topic.map { "\($0.usage)\n\($0.details)" } ?? ReplVerb.overview
        case .quit:
            isFinished = true
            answer.quit = true
        case .discovery(let command):
            return try executeDiscovery(command)
        case .conversation(let command):
            return try executeConversation(command)
        case .me(let command):
            return try executeMe(command)
        case .moderate(let command):
            answer.moderation = try ledger.moderate(command)
        case .within(let window, .history(let profile)):
            answer.history = try ledger.history(about: profile, in: window)
        case .within(let window, let list):
            return Self.only(in: window, try execute(list))
        case .insights(let input):
            let range = InsightQuery.range(since: input.since, until: input.until, by: input.by, today: Date())
            answer.insights = try ledger.insights(
                InsightQuery(since: range.since, until: range.until, by: input.by), all: input.all)
        case .acknowledge:
            let count = try ledger.acknowledgeWarnings()
            answer.note =
                count == 0
                ? "no warnings wait for you"
                : "acknowledged \(count) warning" + (count == 1 ? "" : "s") + "; thank you"
        }
        return answer
    }

    /// `answer` with only the rows of its list stored in `window` (a
    /// history's window is the store's query instead): a match by when it was made, a like of
    /// the viewer by when it came, a conversation by its last message (or
    /// its match, before the first).
    static func only(in window: TimeWindow, _ answer: ReplAnswer) -> ReplAnswer {
        var answer = answer
        answer.matches = answer.matches?.filter { window.contains($0.matchedAt) }
        answer.matchActivity = answer.matchActivity?.filter { window.contains($0.matchedAt) }
        if let likes = answer.discovery?.likes {
            answer.discovery?.likes = likes.filter { window.contains($0.likedAt) }
        }
        if let inbox = answer.conversation?.inbox {
            answer.conversation?.inbox = inbox.filter { window.contains($0.last?.sentAt ?? $0.matchedAt) }
        }
        return answer
    }

    /// Hands `event` to the deck, storing each decision (or undo) in the
    /// ledger as the deck makes it. A failure before anything was stored
    /// leaves the deck as it was: the controller rolls back (the one place
    /// that does).
    private mutating func send(_ event: DeckEvent) throws -> ReplAnswer {
        if case .undo = event, !controller.deck.canUndo, let earlier = try ledger.latestStandingDecision() {
            // Past the session: the viewer's latest standing decision, from
            // an earlier session or another process; the rewind rule decides.
            controller.rememberEarlier(earlier)
        }
        var receipts: [RecordedDecision] = []
        var recorded: [DeckDecision] = []
        var endedMatches: Set<String> = []
        let ledger = self.ledger
        let outcome: DeckOutcome
        do {
            outcome = try controller.handle(event) { action in
                switch action {
                case .record(let decision):
                    receipts.append(try ledger.record(decision))
                    recorded.append(decision)
                case .unrecord(let decision):
                    if try ledger.undoEndingMatch(decision) { endedMatches.insert(decision.profile.id) }
                default: break
                }
            }
        } catch  where !receipts.isEmpty {
            // The decision is stored; what failed was fetching the card to
            // take its place (the deck parked that slot). The decision's
            // outcome is told as it is, its match included; the refill's
            // failure is a note, worded without the store's detail.
            var answer = ReplAnswer(snapshot: controller.snapshot)
            answer.decisions = Array(zip(recorded, receipts))
            answer.showsDeck = true
            answer.note = Self.refillFailed
            return answer
        } catch {
            // The controller rolled the deck back (nothing was stored). A like
            // over its daily quota leaves the card; a drag springs back.
            if receipts.isEmpty, case StoreError.quotaExceeded = error, case .release = event {
                _ = try? controller.handle(.cancel) { _ in }
            }
            throw error
        }
        var answer = ReplAnswer(snapshot: outcome.snapshot)
        answer.actions = outcome.actions
        answer.decisions = Array(zip(outcome.decisions, receipts))
        answer.undone = outcome.undone
        answer.endedMatches = endedMatches
        answer.showsDeck = true
        answer.note = Self.note(for: event, actions: outcome.actions)
        return answer
    }

    /// The note on a stored decision whose next card could not be fetched.
    package static let refillFailed = "the next card could not be loaded just now; `reload` tries again"

    /// What to say when `event` did nothing visible.
    package static func note(for event: DeckEvent, actions: [DeckAction]) -> String? {
        switch event {
        case .cancel where actions.isEmpty:
            return "nothing to cancel: no drag in progress"
        case .reload:
            let asked = actions.filter { if case .load = $0 { true } else { false } }.count
            let arrived = actions.contains { if case .animate = $0 { true } else { false } }
            if asked == 0 { return "the deck is full (4 cards): nothing to reload" }
            if !arrived && !actions.contains(where: { if case .becameEmpty = $0 { true } else { false } }) {
                return "no new cards in the database"
            }
            return nil
        default:
            return nil
        }
    }

    /// An error as a person reads it: the deck's refusals with the command
    /// that gets past them, anything else as it describes itself.
    package static func message(for error: any Error) -> String {
        (error as? DeckRefusal)?.replMessage ?? String(describing: error)
    }

    /// The outcome as JSON members: every answer, a refusal included,
    /// carries the deck as it is after the line (an error's members after
    /// `error`, the changed deck when the failure changed it), so a UI never
    /// has to guess the state.
    package static func jsonMembers(
        _ outcome: Outcome, command: String, snapshot: @autoclosure () -> DeckSnapshot,
        profile: (Profile) -> JSONValue
    ) -> [(String, JSONValue)] {
        // `snapshot` (the deck as it is) is drawn only when the answer carries no deck of its own.
        switch outcome {
        case .blank:
            return ReplAnswer(snapshot: snapshot()).jsonMembers(command: command, profile: profile)
        case .answer(let answer):
            return answer.jsonMembers(command: command, profile: profile)
        case .failure(let refusal, let deck):
            return [("ok", false), ("command", .string(command)), ("error", .string(refusal.message))]
                + ReplAnswer.deckMembers(deck?.snapshot ?? snapshot(), profile: profile)
        }
    }

}

/// What one command did: nothing (a blank line or a comment), its answer,
/// or its refusal as a typed value with the deck when the refusal changed
/// it (a card decided elsewhere leaves it). The REPL writes it as text,
/// JSON mode and the socket as one JSON object; an embedding app reads it.
public enum Outcome {
    case blank
    case answer(ReplAnswer)
    case failure(Refusal, deck: ReplAnswer?)

    public var succeeded: Bool {
        if case .failure = self { false } else { true }
    }

    /// The answer, when the command ran.
    public var answer: ReplAnswer? {
        if case .answer(let answer) = self { answer } else { nil }
    }

    /// The refusal, when it was refused.
    public var refusal: Refusal? {
        if case .failure(let refusal, _) = self { refusal } else { nil }
    }
}

/// How answers are written: text for people (styled or not), or one JSON
/// object per line for programs (README, JSON mode).
public enum ReplFormat: Hashable, Sendable {
    case text(ReplStyle)
    case json
}
