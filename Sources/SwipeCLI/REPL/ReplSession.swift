import SwipeCore
import SwipeStore

/// One REPL session: a deck over a feed, the viewer's ledger, and the output
/// format. It runs one line at a time and writes the answer to any
/// `TextOutputStream`, so tests read exactly what a person (or a UI reading
/// JSON) would.
///
/// Decisions reach the ledger while the deck handles the event (its
/// recorder runs before the slot is refilled), so every decision is stored
/// before its answer is printed. Errors of any kind print a message, change
/// nothing and leave the session running.
public struct ReplSession<Feed: ProfileFeed, Ledger: ReplLedger> {
    public internal(set) var controller: DeckController<Feed>
    public let ledger: Ledger
    public var format: ReplFormat
    /// How text answers draw the deck: width, view, whether at all.
    public var layout = ReplLayout()
    /// Set by `quit`; the driver stops reading.
    public private(set) var isFinished = false

    public init(controller: DeckController<Feed>, ledger: Ledger, format: ReplFormat) {
        self.controller = controller
        self.ledger = ledger
        self.format = format
    }

    public var snapshot: DeckSnapshot { controller.snapshot }

    /// What `deck` prints now in text mode, at `width` columns: the picture
    /// (or the detail page) and its numbers. For redrawing after a resize.
    public func deckLines(width: Int) -> [String] {
        guard case .text(let style) = format else { return [] }
        var answer = ReplAnswer(snapshot: snapshot)
        answer.showsDeck = true
        answer.asked = true
        var layout = self.layout
        layout.width = width
        return answer.textLines(style: style, layout: layout)
    }

    /// Runs one input line and writes its answer. Returns false when the line
    /// failed (unparsable, refused by the deck, or the store failed).
    /// A blank line or `#` comment prints nothing in text mode; in JSON mode
    /// every line gets its one object (`ok`, and the deck as it is).
    @discardableResult
    public mutating func run(_ line: String, into out: inout some TextOutputStream) -> Bool {
        let command = line.trimmingWhitespace
        let answer: ReplAnswer
        do {
            guard let input = try ReplInput.parse(command) else {
                if case .json = format { write(ReplAnswer(snapshot: snapshot), command: command, to: &out) }
                return true
            }
            answer = try execute(input)
        } catch {
            if let refusal = error as? DecidedElsewhere {
                let recovered = withdraw(after: refusal)
                writeError(recovered.message, command: command, deck: recovered.deck, to: &out)
            } else {
                writeError(Self.message(for: error), command: command, to: &out)
            }
            return false
        }
        write(answer, command: command, to: &out)
        return true
    }

    /// Another session for the same viewer (or a decisions import) decided
    /// the top card after this deck drew it, so the store refused this
    /// decision and the deck went back to where it was. The card leaves the
    /// deck without a decision (`DeckEvent.withdraw`), and so does any other
    /// card in the deck the viewer has decided meanwhile: the feed skips
    /// decided profiles, but these were drawn before. `undo` keeps its history.
    private mutating func withdraw(after refusal: DecidedElsewhere) -> (message: String, deck: ReplAnswer?) {
        var message = refusal.description + refusal.place + "; that card leaves the deck"
        var actions: [DeckAction] = []
        do {
            var others: [String] = []
            for id in snapshot.cards.compactMap({ $0.profile?.id }) where id != refusal.profileID {
                if try ledger.history(about: id).contains(where: { $0.undoneAt == nil }) { others.append(id) }
            }
            for id in [refusal.profileID] + others {
                actions += try controller.handle(.withdraw(id)) { _ in }.actions
            }
            if !others.isEmpty {
                message += ", and so " + (others.count == 1 ? "does " : "do ") + others.joined(separator: ", ")
                    + ", decided there too"
            }
        } catch {
            return (message + "; taking it out failed: " + Self.message(for: error), nil)
        }
        var deck = ReplAnswer(snapshot: snapshot)
        deck.actions = actions
        deck.showsDeck = true
        return (message, deck)
    }

    /// Performs `input` and gathers what the answer shows.
    mutating func execute(_ input: ReplInput) throws -> ReplAnswer {
        var answer = ReplAnswer(snapshot: snapshot)
        switch input {
        case .event(let event):
            return try send(event)
        case .deck:
            answer.showsDeck = true
            answer.asked = true
        case .view(let view):
            if let view {
                layout.view = view
                answer.showsDeck = true
            }
            answer.note = "view " + layout.view.rawValue + ": " + (layout.view == .full
                ? "the picture, then every card's pose" : "the picture and one line of numbers (view full adds every card's pose)")
        case .history(let profile):
            answer.history = try ledger.history(about: profile)
        case .matches:
            answer.matches = try ledger.matches()
        case .help(let topic):
            answer.help = topic.map { "\($0.usage)\n\($0.details)" } ?? ReplVerb.overview
        case .quit:
            isFinished = true
            answer.quit = true
        case .discovery(let command):
            return try executeDiscovery(command)
        }
        return answer
    }

    /// Hands `event` to the deck, storing each decision (or undo) in the
    /// ledger as the deck makes it. A failure before anything was stored
    /// leaves the deck as it was: the controller rolls back (the one place
    /// that does).
    private mutating func send(_ event: DeckEvent) throws -> ReplAnswer {
        var receipts: [LedgerReceipt] = []
        let ledger = self.ledger
        let outcome: DeckOutcome
        do {
            outcome = try controller.handle(event) { action in
                switch action {
                case .record(let decision): receipts.append(try ledger.record(decision))
                case .unrecord(let decision): try ledger.undo(decision)
                default: break
                }
            }
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
        answer.showsDeck = true
        answer.note = Self.note(for: event, actions: outcome.actions)
        return answer
    }

    /// What to say when `event` did nothing visible.
    static func note(for event: DeckEvent, actions: [DeckAction]) -> String? {
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
    static func message(for error: any Error) -> String {
        (error as? DeckRefusal)?.replMessage ?? String(describing: error)
    }

    private func write(_ answer: ReplAnswer, command: String, to out: inout some TextOutputStream) {
        switch format {
        case .json:
            answer.json(command: command).write(to: &out)
            out.write("\n")
        case .text(let style):
            for line in answer.textLines(style: style, layout: layout) { out.write(line + "\n") }
        }
    }

    /// The error, then the deck: in JSON always (its members after `error`,
    /// `deck` when the failure changed it, else the unchanged one); in text
    /// the picture after the error line only when the failure changed the deck.
    private func writeError(
        _ message: String, command: String, deck: ReplAnswer? = nil, to out: inout some TextOutputStream
    ) {
        switch format {
        case .json:
            let members: [(String, JSONValue)] = [("ok", false), ("command", .string(command)), ("error", .string(message))]
            // Every answer, a refusal included, carries the deck as it is after
            // the line, so a UI never has to guess the state.
            JSONValue.object(members + ReplAnswer.deckMembers(deck?.snapshot ?? snapshot)).write(to: &out)
            out.write("\n")
        case .text(let style):
            let text = "error: " + TerminalText.sanitized(message, keepNewlines: true)
            let lines = layout.pictures ? TerminalText.wrappedLines(text, width: layout.width, hang: 7) : [text]
            for line in lines { out.write(style.paint(line, .error) + "\n") }
            for line in deck?.textLines(style: style, layout: layout) ?? [] { out.write(line + "\n") }
        }
    }
}

/// How answers are written: text for people (styled or not), or one JSON
/// object per line for programs (README, JSON mode).
public enum ReplFormat: Hashable, Sendable {
    case text(ReplStyle)
    case json
}
