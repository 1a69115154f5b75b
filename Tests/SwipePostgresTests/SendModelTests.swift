import Foundation
import SwipeCore
@_spi(Testing) import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// A message send on PostgreSQL is one server-side function (`swipe_send_2`,
/// `PostgresStore+Send.swift`); on SQLite it is SwipeStore's Swift rules
/// step by step, the one definition of what a send does. This holds the
/// function to that definition, as a model test: the same random sequences
/// of sends (new client ids, retries with a used one: the same text, another
/// text, a canonically equivalent text, another person; texts empty, padded,
/// too long, with a NUL; bad client ids; to nobody, to oneself), likes, undos,
/// unmatches, blocks, unblocks, reads and settings of every rule a send
/// reads (first-move, match-expiry, first-messages-per-day, through `swipe
/// rules` and written raw), among people whose genders differ in case,
/// padding and script, with time moving in small and large steps, run on
/// both backends, give the same answer step by step (refusals word for
/// word, messages with their places and times), and leave the same
/// messages and matches behind.
@Suite(.needsPostgres) struct SendModelTests {
    let stores = TestStores()

    static let start = Date(timeIntervalSince1970: 1_795_218_901.123)  // 2026-11-20T23:55:01.123Z
    /// Genders as profiles may spell them: the rule compares them trimmed and
    /// lower-cased; beyond ASCII, the function hands the send back to Swift.
    static let genders: [String?] = ["f", " F", "m", "M\t", nil, "x", "é", "F\u{301}"]
    static let texts = [
        "hi", "  padded  ", "", " \n ", "a\u{0}b", String(repeating: "x", count: 2001),
        String(repeating: "é", count: 2000), "caf\u{E9}", "cafe\u{301}", "line\none",
    ]

    /// Every answer a send can get, by words its description holds.
    static let kinds: [(kind: String, words: String)] = [
        ("stored", "isRetry: false"), ("retry", "isRetry: true"), ("reused", "already names another"),
        ("not matched", "have no match: only a match"), ("ended", "ended at"), ("expired", "expired at"),
        ("first move", "writes first"), ("first messages", "no first messages left"),
        ("first messages counted", "first-messages-per-day: 1 a day"), ("too long", "holds at most"),
        ("empty", "needs some text"), ("NUL", "NUL character"), ("client id", "a client id must be"),
        ("nobody", "no profile has id"), ("oneself", "cannot message themself"),
    ]

    @Test func bothBackendsAnswerEveryStepAlike() throws {
        let sqlite = try #require(try stores.open(.sqlite) as? SQLiteStore)
        let postgres = try #require(try stores.open(.postgres) as? PostgresStore)
        var checked = 0
        var sent = 0
        var seen: Set<String> = []
        for run in 0..<60 {
            var random = SplitMix64(seed: UInt64(run) &* 0x5851_F42D &+ 11)
            let prefix = "s\(run)-"
            let people = (0..<4).map { prefix + "p\($0)" }
            let genders = people.map { _ in Self.genders[Int(random.next() % UInt64(Self.genders.count))] }
            let rules = [
                ("first-move", ["anyone", "f", "m"]), ("match-expiry", ["off", "48", "1"]),
                ("first-messages-per-day", ["off", "1", "2"]),
            ].map { ($0.0, $0.1[Int(random.next() % 3)]) }
            for store in [sqlite as any SwipeDatabase, postgres] {
                for (id, gender) in zip(people, genders) {
                    try store.upsert(Profile(id: id, name: "Name " + id, age: 30, gender: gender))
                }
                for (name, value) in rules {
                    _ = try store.setRule(name, value)
                }
            }
            var date = Self.start.addingTimeInterval(Double(run) * 10 * 86_400)
            var steps: [String] = []
            var sends: [(viewer: String, profile: String, text: String, id: String)] = []
            var matched: [(String, String)] = []
            var liked: [(String, String)] = []
            for n in 0..<(60 + Int(random.next() % 60)) {
                let step = Step.random(
                    &random, people: people, ghost: prefix + "ghost", sends: sends, liked: liked, matched: matched, n: n
                )
                date = date.addingTimeInterval(step.advance)
                steps.append(step.description)
                if case .send(let viewer, let profile, let text, let id) = step.action {
                    sends.append((viewer, profile, text, id))
                }
                let onSQLite = Self.answer(step, sqlite, at: date)
                let onPostgres = Self.answer(step, postgres, at: date)
                // Compared scalar by scalar: String's == takes canonically equivalent texts as equal.
                let same = onSQLite.unicodeScalars.elementsEqual(onPostgres.unicodeScalars)
                let trail = steps.joined(separator: "; ")
                #expect(
                    same,
                    "run \(run), step \(steps.count): \(step)\nSQLite: \(onSQLite)\nPostgreSQL: \(onPostgres)\nsteps: \(trail)"
                )
                if !same { return }
                if onSQLite.hasPrefix("sent") { sent += 1 }
                if case .like(let viewer, let profile) = step.action, onSQLite.hasPrefix("recorded") {
                    liked.append((viewer, profile))
                    if onSQLite.contains("match: Optional") { matched.append((viewer, profile)) }
                }
                if case .send = step.action {
                    for (kind, words) in Self.kinds where onSQLite.contains(words) { seen.insert(kind) }
                }
                checked += 1
            }
            let rows = (try Self.state(sqlite, people), try Self.state(postgres, people))
            #expect(rows.0.count == rows.1.count, "run \(run): \(steps)")
            for (a, b) in zip(rows.0, rows.1) {
                #expect(a.unicodeScalars.elementsEqual(b.unicodeScalars), "run \(run): \(a) / \(b)")
            }
        }
        #expect(checked > 3000)
        #expect(sent > 300, "enough sends got through to compare their rows")
        #expect(seen == Set(Self.kinds.map(\.kind)), "every answer a send can get was met")
        #expect(postgres.sendsAnsweredOnServer > 1000, "the PostgreSQL store sent through the function")
        #expect(postgres.sendsHandedBack > 0, "genders beyond ASCII took the Swift steps")
    }

    /// What a step answered, as text: the value it returned or the error's words.
    static func answer(_ step: Step, _ store: any SwipeDatabase, at date: Date) -> String {
        do {
            switch step.action {
            case .send(let viewer, let profile, let text, let id):
                let sent = try store.send(
                    MessageSend(viewer: viewer, profile: profile, text: text, clientID: id, at: date))
                return "sent \(sent)"
            case .like(let viewer, let profile):
                return
                    "recorded \(try store.record(viewer: viewer, profile: profile, decision: .like, via: .button, at: date))"
            case .undo(let viewer, let profile):
                return "undone \(try store.undo(viewer: viewer, profile: profile, at: date))"
            case .unmatch(let viewer, let profile):
                try store.unmatch(viewer: viewer, profile: profile, at: date)
                return "unmatched"
            case .block(let viewer, let profile):
                return "blocked \(try store.block(viewer: viewer, profile: profile, at: date))"
            case .unblock(let viewer, let profile):
                try store.unblock(viewer: viewer, profile: profile)
                return "unblocked"
            case .read(let viewer, let profile):
                return "read \(try store.messages(MessageQuery(viewer: viewer, profile: profile, at: date)))"
            case .rule(let name, let value):
                return "rules \(try store.setRule(name, value))"
            case .rawRule(let name, let value):
                guard let sql = store as? any SQLDatabase else { return "no SQL" }
                try Self.writeSetting(sql, name: name, value: value)
                return "rules \(try store.rules())"
            }
        } catch {
            return "refused \(error)"
        }
    }

    /// A rule's row as anything may have written it (not through `swipe rules`).
    static func writeSetting(_ store: some SQLDatabase, name: String, value: String) throws {
        try store.write {
            try store.executor.run(
                """
                INSERT INTO settings (name, value) VALUES ($1, $2)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, [.text(name), .text(value)])
        }
    }

    /// The rows the steps wrote, by the people's ids.
    static func state(_ store: some SQLDatabase, _ people: [String]) throws -> [String] {
        let ids: [SQLValue] = people.map { .text($0) }
        let inRun = "IN ($1, $2, $3, $4)"
        var rows = try store.executor.all(
            """
            SELECT l.id AS low, h.id AS high, m.seq, s.id AS sender, r.id AS recipient, m.client_id, m.body,
                   m.sent_at, m.read_at
            FROM messages AS m JOIN profiles AS l ON l.key = m.low JOIN profiles AS h ON h.key = m.high
            JOIN profiles AS s ON s.key = m.sender JOIN profiles AS r ON r.key = m.recipient
            WHERE s.id \(inRun) ORDER BY m.sent_at, l.id, h.id, m.seq
            """, ids
        ) {
            "message \(try $0.text("low")) \(try $0.text("high")) \(try $0.int("seq")) \(try $0.text("sender")) "
                + "\(try $0.text("recipient")) \(try $0.text("client_id")) \(try $0.text("body").debugDescription) "
                + "\(try $0.text("sent_at")) \(try $0.optionalText("read_at") ?? "-")"
        }
        rows += try DecisionModelTests.matchRows(store, ids)
        return rows
    }

    struct Step: CustomStringConvertible {
        enum Action {
            case send(String, String, String, String)
            case like(String, String)
            case undo(String, String)
            case unmatch(String, String)
            case block(String, String)
            case unblock(String, String)
            case read(String, String)
            case rule(String, String)
            case rawRule(String, String)
        }
        var action: Action
        /// Seconds from the step before: mostly one, sometimes hours, so
        /// deadlines pass and the first messages' window fills and frees.
        var advance: TimeInterval

        static func random(
            _ random: inout SplitMix64, people: [String], ghost: String,
            sends: [(viewer: String, profile: String, text: String, id: String)], liked: [(String, String)],
            matched: [(String, String)], n: Int
        ) -> Step {
            func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
            // A person now and then is one who does not exist, or the viewer
            // themself; mostly, two who matched (either way round).
            var viewer = random.next() % 50 == 0 ? ghost : pick(people)
            var profile = random.next() % 40 == 0 ? ghost : pick(people)
            if !matched.isEmpty && random.next() % 10 < 6 {
                let pair = pick(matched)
                (viewer, profile) = random.next() % 2 == 0 ? pair : (pair.1, pair.0)
            }
            let text = random.next() % 4 == 0 ? pick(SendModelTests.texts) : "message \(n)"
            let roll = random.next() % 100
            let action: Action =
                switch roll {
                // Half the likes answer an earlier like: matches to converse in.
                case 0..<30:
                    random.next() % 2 == 0 && !liked.isEmpty
                        ? pick(liked.map { .like($0.1, $0.0) }) : .like(viewer, profile)
                case 30..<63:
                    .send(viewer, profile, text, random.next() % 30 == 0 ? pick(["", "bad\u{7}id"]) : "c\(n)")
                case 63..<75 where !sends.isEmpty: retry(pick(sends), profile: profile, text: text, &random)
                case 75..<77: .undo(viewer, profile)
                case 77..<79: .unmatch(viewer, profile)
                case 79..<80: .block(viewer, profile)
                case 80..<82: .unblock(viewer, profile)
                case 82..<87: .read(viewer, profile)
                case 87..<90: .rule("first-move", pick(["anyone", "anyone", "f", "m", "F ", "é", "x"]))
                case 90..<92: .rule("match-expiry", pick(["off", "1", "48"]))
                case 92..<96: .rule("first-messages-per-day", pick(["off", "off", "0", "1", "2", "3"]))
                case 96..<100:
                    pick([
                        .rawRule(
                            "rule.first-messages-per-day", pick(["+1", "-2", "abc", "99999999999999999999", "2 "])),
                        .rawRule("rule.first-move", pick(["F", " f", "", "m", "e\u{301}"])),
                    ])
                default: .like(viewer, profile)
                }
            let advance: TimeInterval =
                random.next() % 15 == 0
                ? pick([3_600, 6 * 3_600, 20 * 3_600, 49 * 3_600]) : pick([0, 0.001, 1, 60, 600])
            return Step(action: action, advance: advance)
        }

        /// A retry of `earlier`: the same send, or its client id reused for
        /// another text (a canonically equivalent one among them) or another person.
        static func retry(
            _ earlier: (viewer: String, profile: String, text: String, id: String), profile: String, text: String,
            _ random: inout SplitMix64
        ) -> Action {
            switch random.next() % 5 {
            case 0: .send(earlier.viewer, profile, earlier.text, earlier.id)
            case 1: .send(earlier.viewer, earlier.profile, text, earlier.id)
            case 2:
                .send(
                    earlier.viewer, earlier.profile, earlier.text.contains("\u{E9}") ? "cafe\u{301}" : "caf\u{E9}",
                    earlier.id)
            default: .send(earlier.viewer, earlier.profile, earlier.text, earlier.id)
            }
        }

        var description: String {
            switch action {
            case .send(let v, let p, let t, let id): "\(v) says \(t.prefix(20).debugDescription) to \(p) as \(id)"
            case .like(let v, let p): "\(v) like \(p)"
            case .undo(let v, let p): "\(v) undo \(p)"
            case .unmatch(let v, let p): "\(v) unmatch \(p)"
            case .block(let v, let p): "\(v) block \(p)"
            case .unblock(let v, let p): "\(v) unblock \(p)"
            case .read(let v, let p): "\(v) reads \(p)"
            case .rule(let n, let v): "rule \(n)=\(v)"
            case .rawRule(let n, let v): "raw \(n)=\(v.debugDescription)"
            }
        }
    }
}
