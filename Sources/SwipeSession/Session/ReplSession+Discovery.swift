import SwipeCore
import SwipeStore

/// What a discovery command shows, besides the deck.
package struct DiscoveryAnswer {
    /// One line saying what changed ("blocked m-3; your match ended").
    package var notice: String?
    /// The viewer's profile, for `prefs`.
    package var preferences: Profile?
    package var likes: [Liker]?
    /// `why`: the top card and its reasons.
    package var reasons: (profile: String, reasons: [String])?
    /// Cards that left the deck undecided because they no longer qualify.
    package var withdrawn: [String] = []
}

extension ReplSession {
    /// Runs a discovery command: the store first, then the deck follows (a
    /// blocked profile's card leaves; after a change of preferences every
    /// card that no longer qualifies leaves and the feed deals new ones).
    package mutating func executeDiscovery(_ input: DiscoveryInput) throws -> ReplAnswer {
        let store = ledger
        var found = DiscoveryAnswer()
        var actions: [DeckAction] = []
        switch input {
        case .prefs(nil):
            found.preferences = try store.viewerProfile()
        case .prefs(let setting?):
            found.preferences = try store.setPreferences(try Self.change(setting))
            let ids = snapshot.cards.compactMap { $0.profile?.id }
            let keep = try store.eligible(among: ids)
            found.withdrawn = ids.filter { !keep.contains($0) }
            actions += try withdrawCards(found.withdrawn)
            found.notice = "preferences saved" + Self.leftLine(found.withdrawn)
            if case .seeking = setting, let seeking = found.preferences?.preferences.seeking,
                let unknown = try store.unknownGenders(seeking)
            {
                found.notice! += "; " + unknown
            }
        case .likes:
            found.likes = try store.likes()
        case .why:
            guard let top = snapshot.top?.id else { throw NothingToExplain() }
            found.reasons = (top, try store.reasons(about: top))
        case .block(let given):
            let id = try given ?? shownProfileID()
            try requireMet(id, ownBlock: true)
            let outcome = try store.block(id)
            heard.ended(id)
            actions += try withdrawCards([id])
            found.notice = "blocked \(id)" + (outcome.endedMatch ? "; your match ended" : "")
        case .unblock(let id):
            try requireMet(id, ownBlock: true)
            try store.unblock(id)
            actions += try fillParkedSlots()
            found.notice = "unblocked \(id)"
        case .unmatch(let id):
            try requireMet(id)
            try store.unmatch(id)
            heard.ended(id)
            found.notice = "unmatched \(id), for good"
        case .report(let id, let reason):
            try requireMet(id, ownBlock: true)
            let outcome = try store.report(id, reason: reason)
            heard.ended(id)
            actions += try withdrawCards([id])
            found.notice = "reported \(id) and blocked them" + (outcome.endedMatch ? "; your match ended" : "")
        }
        var answer = ReplAnswer(snapshot: snapshot)
        answer.actions = actions
        answer.discovery = found
        answer.showsDeck = !actions.isEmpty
        return answer
    }

    /// The change `prefs` asks for, checked; a refusal names what was typed.
    package static func change(_ setting: PrefsSetting) throws -> PreferencesChange {
        let (field, value) =
            switch setting {
            case .age(let v): ("age", v)
            case .seeking(let v): ("seeking", v)
            case .km(let v): ("km", v)
            case .location(let v): ("location", v)
            }
        do {
            switch setting {
            case .age: return PreferencesChange(ages: try PreferencesChange.ages(value))
            case .seeking: return PreferencesChange(seeking: PreferencesChange.seeking(value))
            case .km: return PreferencesChange(maxKm: .some(try PreferencesChange.maxKm(value)))
            case .location: return PreferencesChange(location: .some(try PreferencesChange.location(value)))
            }
        } catch {
            throw CommandError(input: "prefs \(field) \(value)", message: "prefs \(field): \(error)")
        }
    }

    /// The id on the open detail page, for a bare `block`.
    private func shownProfileID() throws -> String {
        guard case .detail(let profile) = snapshot.mode else {
            throw CommandError(
                input: "block", message: "block takes a profile id, e.g. block m-3 (or open a card first)")
        }
        return profile.id
    }

    /// Takes these cards out of the deck undecided; the feed refills them.
    package mutating func withdrawCards(_ ids: [String]) throws -> [DeckAction] {
        var actions: [DeckAction] = []
        for id in ids where snapshot.cards.contains(where: { $0.profile?.id == id }) {
            actions += try controller.handle(.withdraw(id)) { _ in }.actions
        }
        return actions + (try fillParkedSlots())
    }

    /// Asks the feed for empty slots (after preferences widened or a block
    /// lifted), when the deck can take the request now.
    private mutating func fillParkedSlots() throws -> [DeckAction] {
        guard snapshot.cards.contains(where: { $0.profile == nil }) else { return [] }
        do {
            return try controller.handle(.reload) { _ in }.actions
        } catch is DeckRefusal {
            return []  // mid-drag or on a detail page: `reload` later fills them
        }
    }

    private static func leftLine(_ ids: [String]) -> String {
        ids.isEmpty
            ? ""
            : "; " + ids.joined(separator: ", ")
                + (ids.count == 1 ? " no longer qualifies and leaves" : " no longer qualify and leave")
                + " the deck"
    }
}
