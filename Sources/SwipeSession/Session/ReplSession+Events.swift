import SwipeCore
import SwipeStore

/// What happened to the viewer elsewhere while a session stood open: a
/// match or a message made by the page, `swipe send`, another REPL or
/// another server. A session hears them with `listen()`; each interface
/// tells them its own way (the REPL above its prompt, the socket as a push).
public enum SessionEvent: Hashable, Sendable {
    /// Someone the viewer liked liked them back (or the other way round).
    case matched(ChatPartner, at: String)
    /// A message in one of the viewer's conversations: from the partner, or
    /// the viewer's own sent from elsewhere. `inOpenChat`: the session's open
    /// chat is that conversation (the message is on screen, so it is read).
    case message(Message, partner: ChatPartner, inOpenChat: Bool)
    /// A match ended elsewhere: unmatched, blocked or erased, which the
    /// viewer is not told apart (a block must not show as one).
    case unmatched(ChatPartner)
}

/// What a session has told of its viewer's matches and conversations, so
/// `listen` tells each match and message once, and never what the session
/// itself did (its own like that matched, its own `say`).
package struct Heard: Sendable {
    /// nil until the first `listen`: what stood before the session listened is not news.
    var partners: [String: ChatPartner]?
    /// The newest message seen in each conversation, by partner id.
    var newest: [String: Int] = [:]
    /// The client ids of this session's own sends.
    var sent: Set<String> = []

    /// The chat just entered showed these messages.
    mutating func shown(_ messages: [Message], with id: String) {
        if let last = messages.last?.seq { newest[id] = max(newest[id] ?? 0, last) }
    }

    mutating func sentHere(_ sent: SentMessage?) {
        if let sent { self.sent.insert(sent.message.clientID) }
    }

    /// This session ended the match with `id` (unmatch, block, report).
    mutating func ended(_ id: String) {
        partners?[id] = nil
    }

    /// What this session's own answer told: the matches its decisions made
    /// and those its undo ended.
    mutating func absorb(_ answer: ReplAnswer) {
        guard partners != nil else { return }
        for (decision, receipt) in answer.decisions where receipt.match != nil {
            partners?[decision.profile.id] = ChatPartner(id: decision.profile.id, name: decision.profile.name)
        }
        for id in answer.endedMatches { partners?[id] = nil }
    }
}

extension ReplSession {
    /// Reads what happened to the viewer elsewhere since the last call: one
    /// inbox read (the viewer's own matches and last messages, as `inbox`
    /// shows them), and in an open chat the messages after the last one
    /// seen, which are then read. The first call only takes note of what
    /// stands. A failure of the store tells nothing this time; the next call
    /// catches up.
    public mutating func listen() -> [SessionEvent] {
        guard let inbox = try? ledger.inbox() else { return [] }
        let partners = Dictionary(
            inbox.map { ($0.profile, ChatPartner(id: $0.profile, name: $0.name)) }, uniquingKeysWith: { a, _ in a })
        guard let before = heard.partners else {
            heard.partners = partners
            for entry in inbox {
                heard.newest[entry.profile] = max(heard.newest[entry.profile] ?? 0, entry.last?.seq ?? 0)
            }
            return []
        }
        heard.partners = partners
        var events: [SessionEvent] = []
        for entry in inbox {
            let partner = partners[entry.profile]!
            if before[entry.profile] == nil {
                events.append(.matched(partner, at: entry.matchedAt))
            }
            let seen = heard.newest[entry.profile] ?? 0
            guard let last = entry.last, last.seq > seen else { continue }
            heard.newest[entry.profile] = last.seq
            if chat?.id == entry.profile {
                let messages = (try? ledger.read(with: entry.profile, last: last.seq - seen)) ?? [last]
                for message in messages where message.seq > seen && !heard.sent.contains(message.clientID) {
                    events.append(.message(message, partner: partner, inOpenChat: true))
                }
            } else if !heard.sent.contains(last.clientID) {
                events.append(.message(last, partner: partner, inOpenChat: false))
            }
        }
        for (id, partner) in before where partners[id] == nil {
            heard.newest[id] = nil
            events.append(.unmatched(partner))
        }
        return events
    }
}
