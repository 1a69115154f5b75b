import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The rules of conversations (Documentation/REPL.md, "Conversations") against a small independent
/// model, over random sequences of likes, undos, unmatches, blocks, sends
/// (retries with a used client id among them), reads and the passing of
/// time, under random rules. After every step the store's answer (stored,
/// a retry, or which refusal) is the model's; at the end each
/// conversation, its read state and every inbox are the model's too.
@Suite struct ConversationModelTests {
    typealias Random = DiscoveryModel.Random
    static let people = ["a", "b", "c", "d"]
    static let genders: [String: String?] = ["a": "f", "b": "m", "c": "f", "d": nil]
    static let hour = 3_600_000

    /// The model: the contract's rules, each applied literally.
    struct Model {
        struct MatchRow { var matchedAt: Int; var endedAt: Int?; var deadline: Int? }
        struct Sent: Equatable {
            var seq: Int; var from: String; var to: String; var text: String; var id: String; var at: Int;
            var readAt: Int?
        }

        var decisions: [String: Int] = [:]  // "v>p" → decided at (standing likes only)
        var blocks: Set<String> = []  // "blocker>blocked"
        var matches: [String: MatchRow] = [:]  // "low|high"
        var messages: [String: [Sent]] = [:]  // "low|high" → in order
        var expiryHours: Int?
        var firstMove: String?
        var perDay: Int?

        static func pair(_ a: String, _ b: String) -> String { a < b ? "\(a)|\(b)" : "\(b)|\(a)" }
        func blocked(_ a: String, _ b: String) -> Bool { blocks.contains("\(a)>\(b)") || blocks.contains("\(b)>\(a)") }

        /// "ok", or the name of the refusal.
        mutating func like(_ v: String, _ p: String, at now: Int) -> String {
            if blocked(v, p) { return "blocked" }
            if decisions["\(v)>\(p)"] != nil { return "alreadyDecided" }
            decisions["\(v)>\(p)"] = now
            if let theirs = decisions["\(p)>\(v)"], matches[Self.pair(v, p)] == nil {
                let at = max(theirs, now)
                matches[Self.pair(v, p)] = MatchRow(
                    matchedAt: at, endedAt: nil, deadline: expiryHours.map { at + $0 * hour })
            }
            return "ok"
        }

        mutating func undo(_ v: String, _ p: String, at now: Int) -> String {
            guard decisions.removeValue(forKey: "\(v)>\(p)") != nil else { return "notDecided" }
            let key = Self.pair(v, p)
            if let row = matches[key], row.endedAt == nil {
                if messages[key, default: []].isEmpty { matches[key] = nil } else { matches[key]!.endedAt = now }
            }
            return "ok"
        }

        mutating func unmatch(_ v: String, _ p: String, at now: Int) -> String {
            let key = Self.pair(v, p)
            guard let row = matches[key], row.endedAt == nil else { return "notMatched" }
            matches[key]!.endedAt = now
            return "ok"
        }

        mutating func block(_ v: String, _ p: String, at now: Int) -> String {
            if blocks.contains("\(v)>\(p)") { return "alreadyBlocked" }
            blocks.insert("\(v)>\(p)")
            _ = unmatch(v, p, at: now)
            return "ok"
        }

        /// "stored 3", "retry 2", or the refusal.
        mutating func send(_ from: String, _ to: String, _ text: String, id: String, at now: Int) -> String {
            for (_, list) in messages {
                if let old = list.first(where: { $0.from == from && $0.id == id }) {
                    return old.to == to && old.text == text ? "retry \(old.seq)" : "clientIDReused"
                }
            }
            let key = Self.pair(from, to)
            guard let row = matches[key] else { return "notMatched" }
            if row.endedAt != nil { return "ended" }
            let list = messages[key, default: []]
            if list.isEmpty {
                if let deadline = row.deadline, deadline <= now { return "expired" }
                if let g = firstMove, ConversationModelTests.genders[to]! == g,
                    ConversationModelTests.genders[from]! != g
                {
                    return "firstMove"
                }
                if let limit = perDay {
                    let mine = messages.values.compactMap { $0.first }.filter {
                        $0.from == from && $0.at > now - 24 * hour
                    }
                    if mine.count >= limit { return "firstMessagesPerDay" }
                }
            }
            messages[key, default: []].append(
                Sent(seq: list.count + 1, from: from, to: to, text: text, id: id, at: now, readAt: nil))
            return "stored \(list.count + 1)"
        }

        mutating func read(_ viewer: String, _ other: String, at now: Int) -> String {
            let key = Self.pair(viewer, other)
            guard let row = matches[key] else { return "notMatched" }
            if row.endedAt != nil { return "ended" }
            for i in messages[key, default: []].indices
            where messages[key]![i].to == viewer && messages[key]![i].readAt == nil {
                messages[key]![i].readAt = now
            }
            return "ok"
        }
    }

    static func date(_ ms: Int) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
    static func stamp(_ ms: Int) -> String { Timestamp.string(from: date(ms)) }

    static func outcome(_ body: () throws -> String) -> String {
        do {
            return try body()
        } catch let error as StoreError {
            switch error {
            case .messageRefused(let refusal): return String(describing: refusal).refusalName(refusal)
            case .blocked: return "blocked"
            case .alreadyDecided: return "alreadyDecided"
            case .notDecided: return "notDecided"
            case .notMatched: return "notMatched"
            case .alreadyBlocked: return "alreadyBlocked"
            default: return "\(error)"
            }
        } catch {
            return "\(error)"
        }
    }

    static func check(seed: Int, store: any SwipeDatabase, prefix: String) throws {
        var random = Random(seed: seed)
        var model = Model()
        let ids = Dictionary(uniqueKeysWithValues: people.map { ($0, prefix + $0) })
        func id(_ p: String) -> String { ids[p]! }
        model.expiryHours = random.chance(50) ? random.int(1...6) : nil
        model.firstMove = random.chance(40) ? random.pick(["f", "m"]) : nil
        model.perDay = random.chance(40) ? random.int(0...2) : nil
        _ = try store.setRule("match-expiry", model.expiryHours.map(String.init) ?? "off")
        _ = try store.setRule("first-move", model.firstMove ?? "anyone")
        _ = try store.setRule("first-messages-per-day", model.perDay.map(String.init) ?? "off")
        var now = 1_795_000_000_000 + seed % 1000
        var usedIDs: [(from: String, to: String, text: String, id: String)] = []
        let steps = random.int(10...45)
        var log: [String] = []
        for step in 0..<steps {
            now += random.pick([0, 1, 60_000, hour, 5 * hour, 24 * hour])
            let (v, p) = (random.pick(people), random.pick(people))
            if v == p { continue }
            let at = date(now)
            let (expected, got): (String, String)
            switch random.int(0...99) {
            case 0..<30:
                expected = model.like(v, p, at: now)
                got = outcome {
                    _ = try store.record(viewer: id(v), profile: id(p), decision: .like, via: .drag, at: at);
                    return "ok"
                }
            case 30..<36:
                expected = model.undo(v, p, at: now)
                got = outcome {
                    _ = try store.undo(viewer: id(v), profile: id(p), at: at); return "ok"
                }
            case 36..<40:
                expected = model.unmatch(v, p, at: now)
                got = outcome {
                    try store.unmatch(viewer: id(v), profile: id(p), at: at); return "ok"
                }
            case 40..<43:
                expected = model.block(v, p, at: now)
                got = outcome {
                    _ = try store.block(viewer: id(v), profile: id(p), at: at); return "ok"
                }
            case 43..<85:
                // A retry of an earlier send, as it was or changed; else a new one.
                var send = (from: v, to: p, text: "m\(step)", id: "\(seed)-\(step)")
                if !usedIDs.isEmpty, random.chance(30) {
                    let old = random.pick(usedIDs)
                    send = (old.from, random.chance(80) ? old.to : p, random.chance(80) ? old.text : "changed", old.id)
                    if send.from == send.to { continue }
                }
                usedIDs.append(send)
                expected = model.send(send.from, send.to, send.text, id: send.id, at: now)
                got = outcome {
                    let sent = try store.send(
                        MessageSend(
                            viewer: id(send.from), profile: id(send.to), text: send.text,
                            clientID: send.id, at: at))
                    return (sent.isRetry ? "retry " : "stored ") + String(sent.message.seq)
                }
            default:
                expected = model.read(v, p, at: now)
                got = outcome {
                    _ = try store.messages(MessageQuery(viewer: id(v), profile: id(p), at: at)); return "ok"
                }
            }
            log.append("\(step) \(v)\(p) \(expected)")
            #expect(got == expected, "seed \(seed) step \(step): \(log.joined(separator: "; "))")
            if got != expected { return }
        }
        // Every conversation, as stored, and every inbox.
        for (i, a) in people.enumerated() {
            for b in people[(i + 1)...] {
                let key = Model.pair(a, b)
                let row = model.matches[key]
                let stored = outcome {
                    try store.messages(MessageQuery(viewer: id(a), profile: id(b), markRead: false)).map {
                        "\($0.seq) \($0.sender) \($0.recipient) \($0.text) \($0.clientID) \($0.sentAt) \($0.readAt ?? "-")"
                    }.joined(separator: ", ")
                }
                let expected =
                    row == nil
                    ? "notMatched"
                    : row!.endedAt != nil
                        ? "ended"
                        : model.messages[key, default: []].map {
                            "\($0.seq) \(id($0.from)) \(id($0.to)) \($0.text) \($0.id) \(stamp($0.at)) \($0.readAt.map(stamp) ?? "-")"
                        }.joined(separator: ", ")
                #expect(stored == expected, "seed \(seed), \(a)-\(b): \(log.joined(separator: "; "))")
            }
        }
        for a in people {
            let inbox = try store.inbox(viewer: id(a), at: date(now)).map {
                "\($0.profile) \($0.unread) \($0.last?.seq ?? 0) \($0.isExpired)"
            }.sorted()
            let expected = people.compactMap { b -> String? in
                guard b != a, let row = model.matches[Model.pair(a, b)], row.endedAt == nil else { return nil }
                let list = model.messages[Model.pair(a, b), default: []]
                let unread = list.filter { $0.to == a && $0.readAt == nil }.count
                let expired = list.isEmpty && row.deadline.map { $0 <= now } == true
                return "\(id(b)) \(unread) \(list.count) \(expired)"
            }.sorted()
            #expect(inbox == expected, "seed \(seed), inbox of \(a): \(log.joined(separator: "; "))")
        }
    }

    @Test(arguments: TestBackend.all) func theRulesMatchABruteForceModel(_ backend: TestBackend) throws {
        let stores = TestStores()
        let store = try stores.open(backend)
        let seeds = backend == .sqlite ? 300 : 120
        for seed in 0..<seeds {
            let prefix = "s\(seed)-"
            for person in Self.people {
                try store.upsert(
                    Profile(id: prefix + person, name: person.uppercased(), age: 30, gender: Self.genders[person]!))
            }
            try Self.check(seed: seed, store: store, prefix: prefix)
        }
        withExtendedLifetime(stores) {}
    }
}

extension String {
    /// The case name of a refusal, as the model names it.
    fileprivate func refusalName(_ refusal: MessageRefusal) -> String {
        switch refusal {
        case .notMatched: "notMatched"
        case .ended: "ended"
        case .expired: "expired"
        case .firstMove: "firstMove"
        case .firstMessagesPerDay: "firstMessagesPerDay"
        case .tooFast: "tooFast"
        case .tooLong: "tooLong"
        case .empty: "empty"
        case .holdsNUL: "holdsNUL"
        case .badClientID: "badClientID"
        case .clientIDReused: "clientIDReused"
        }
    }
}
