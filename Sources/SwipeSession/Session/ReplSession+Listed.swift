import SwipeCore
import SwipeStore

/// Lists that act (Documentation/REPL.md, "Lists that act"): a person met in
/// a list (`matches`, `likes`, `inbox`, `history`) or on the deck opens by id
/// (`open ID`, `profile ID`) and is decided about from there, or at once
/// (`like ID`: a like back from `likes`), with the deck's rules: the store
/// refuses what it refuses for a card (a block, a quota, a decision that
/// stands). A card of the deck decided so leaves the deck.
extension ReplSession {
    package mutating func executeListed(_ input: ListedInput) throws -> ReplAnswer {
        switch input {
        case .open(let id):
            let profile = try listedProfile(id, verb: "open")
            viewing = profile
            var answer = ReplAnswer(snapshot: snapshot)
            answer.opened = profile
            return answer
        case .decide(let id, let decision):
            return try decide(try listedProfile(id, verb: decision.rawValue), decision)
        }
    }

    /// With a profile open (`open ID`): `like`, `hate`, `superlike` and a
    /// bare `block` act on it and `back` closes it; anything else closes it
    /// and runs as usual (nil).
    package mutating func actOnViewed(_ input: Command) throws -> ReplAnswer? {
        guard let shown = viewing else { return nil }
        viewing = nil
        switch input {
        case .event(.button(let decision)):
            return try decide(shown, decision)
        case .event(.close):
            var answer = ReplAnswer(snapshot: snapshot)
            answer.note = "← closed the profile of " + ReplAnswer.who(shown)
            return answer
        case .discovery(.block(nil)):
            return try executeDiscovery(.block(shown.id))
        default:
            return nil
        }
    }

    /// Records `decision` about `profile` (from its detail page) and takes
    /// its card out of the deck if it is there; the top card goes as the
    /// deck's button sends it.
    private mutating func decide(_ profile: Profile, _ decision: Decision) throws -> ReplAnswer {
        // The top card is decided by the deck's own button: its animation,
        // and `undo` brings it back.
        if case .deck = snapshot.mode, snapshot.top?.id == profile.id, snapshot.dragging == nil {
            return try execute(.event(.button(decision)))
        }
        let made = DeckDecision(profile: profile, decision: decision, via: .detail)
        let receipt: RecordedDecision
        do {
            receipt = try ledger.record(made)
        } catch let refusal as DecidedElsewhere {
            throw CommandError(input: decision.rawValue + " " + profile.id, message: refusal.description)
        }
        var answer = ReplAnswer(snapshot: snapshot)
        answer.actions = [.record(made)] + (try withdrawCards([profile.id]))
        answer.snapshot = snapshot
        answer.decisions = [(made, receipt)]
        answer.showsDeck = true
        return answer
    }

    /// Refuses a command naming `id` (`block`, `report`, `unblock`,
    /// `unmatch`, `say`, `chat`) unless the viewer has met them: a card of
    /// the deck, the profile or chat open, someone in their history, likes
    /// or matches, or, with `ownBlock`, someone they blocked themself (to
    /// unblock or report). Anyone else gets the words an id that is no
    /// profile gets (`StoreError.unknownProfile`): a stranger, someone who
    /// blocked the viewer, an erased person, an id that never existed. So no
    /// one learns which ids exist, nor that they were blocked (issue 36).
    package func requireMet(_ id: String, ownBlock: Bool = false) throws {
        // Oneself: the store's own refusal says what is wrong.
        if id == ledger.viewer { return }
        if snapshot.cards.contains(where: { $0.profile?.id == id }) || viewing?.id == id || chat?.id == id { return }
        if try hasMet(id) { return }
        if ownBlock, try ledger.blocked().contains(id) { return }
        throw StoreError.unknownProfile(id)
    }

    /// Whether `id` is someone the viewer may see (no block either way) and
    /// has met in their history, likes or matches.
    package func hasMet(_ id: String) throws -> Bool {
        guard try ledger.profile(id) != nil else { return false }
        let inHistory = (try? ledger.history(about: id))?.isEmpty == false
        return try inHistory || ledger.likes().contains { $0.profile == id }
            || ledger.matches().contains { $0.profile == id }
    }

    /// `id`'s profile when the viewer has met them: a card of the deck, or
    /// someone in their likes, matches or history. Anyone else (and an id
    /// that is no profile, or someone with whom a block stands either way)
    /// gets the same refusal, which tells nothing of whether they exist.
    private func listedProfile(_ id: String, verb: String) throws -> Profile {
        if let card = snapshot.cards.compactMap(\.profile).first(where: { $0.id == id }) { return card }
        let inHistory = (try? ledger.history(about: id))?.isEmpty == false
        let met =
            try inHistory || ledger.likes().contains { $0.profile == id }
            || ledger.matches().contains { $0.profile == id }
        guard met, let profile = try ledger.profile(id) else {
            throw CommandError(
                input: verb + " " + id,
                message:
                    "\(verb) \(TerminalText.oneLine(id)): not in your deck, likes, matches or history; "
                    + "\(verb) ID acts on people you have met there (see likes, matches, inbox, history)")
        }
        return profile
    }
}
