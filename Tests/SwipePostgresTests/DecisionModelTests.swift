import Foundation
import SwipeCore
@_spi(Testing) import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// The decision and the undo on PostgreSQL are each one server-side function
/// (`swipe_decide_2`, `PostgresStore+Decide.swift`; `swipe_undo_1`,
/// `PostgresStore+Undo.swift`); on SQLite they are SwipeStore's Swift rules
/// step by step, the one definition of what each does. This holds the
/// functions to that definition, as a model test: the same random sequences of
/// decisions (by people who exist or not, about themselves or others), undos,
/// messages (an undo ends a match that talked, and deletes one that did not),
/// blocks, unblocks, reports, feed positions and settings of every rule a
/// decision or an undo reads (likes and superlikes per day, match expiry,
/// rewind), with time moving in small and large steps so the quota's window
/// fills and frees, run on both backends, give the same answer step by step
/// (refusals word for word, matches with their names and times), and leave
/// the same decisions, matches (deadlines and ends included), blocks, likers'
/// cursors and feed cursors behind.
@Suite(.needsPostgres) struct DecisionModelTests {
    let stores = TestStores()

    static let start = Date(timeIntervalSince1970: 1_795_218_901.123)  // 2026-11-20T23:55:01.123Z

    @Test func bothBackendsAnswerEveryStepAlike() throws {
        let sqlite = try #require(try stores.open(.sqlite) as? SQLiteStore)
        let postgres = try #require(try stores.open(.postgres) as? PostgresStore)
        var checked = 0
        for run in 0..<60 {
            var random = SplitMix64(seed: UInt64(run) &* 0x9E37_79B9 &+ 7)
            let prefix = "r\(run)-"
            let people = (0..<4).map { prefix + "p\($0)" }
            for store in [sqlite as any SwipeDatabase, postgres] {
                for id in people { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
            }
            var date = Self.start.addingTimeInterval(Double(run) * 10 * 86_400)
            var steps: [String] = []
            var liked: (String, Decision)?
            for _ in 0..<(40 + Int(random.next() % 40)) {
                var step = Step.random(&random, people: people, ghost: prefix + "ghost")
                if let (profile, kind) = liked {
                    // Someone likes the person whose likers' cursor was just set, at that instant.
                    step = Step(action: .decide(people[Int(random.next() % 4)], profile, kind), advance: 0)
                    liked = nil
                }
                date = date.addingTimeInterval(step.advance)
                steps.append(step.description)
                if case .feedPassed(let viewer, let profile) = step.action {
                    try Self.setFeedCursor(sqlite, viewer: viewer, passed: profile)
                    try Self.setFeedCursor(postgres, viewer: viewer, passed: profile)
                    continue
                }
                if case .likersResume(let viewer, let kind, let back) = step.action {
                    let at = Timestamp.string(from: date.addingTimeInterval(-back))
                    try Self.setLikersCursor(sqlite, viewer: viewer, kind: kind, at: at)
                    try Self.setLikersCursor(postgres, viewer: viewer, kind: kind, at: at)
                    liked = (viewer, kind)
                    continue
                }
                let onSQLite = Self.answer(step, sqlite, at: date)
                let onPostgres = Self.answer(step, postgres, at: date)
                #expect(
                    onSQLite == onPostgres,
                    "run \(run), step \(steps.count): \(step)\nsteps: \(steps.joined(separator: "; "))")
                if onSQLite != onPostgres { return }
                checked += 1
            }
            #expect(try Self.state(sqlite, people) == Self.state(postgres, people), "run \(run): \(steps)")
        }
        #expect(checked > 3000)
        #expect(
            try postgres.connection.scalarInt("SELECT count(*) FROM pg_proc WHERE proname = 'swipe_decide_2'") == 1,
            "the PostgreSQL store decided through the function")
        #expect(postgres.undosAnsweredOnServer > 500, "the PostgreSQL store undid through the function")
    }

    /// The viewer's feed has dealt everyone up to `profile`'s key (an undo of
    /// a decision about someone at or before it moves it back).
    static func setFeedCursor(_ store: some SQLDatabase, viewer: String, passed profile: String) throws {
        try store.write {
            try store.executor.run(
                """
                INSERT INTO feed_cursors (viewer, after_key)
                SELECT v.key, p.key FROM profiles AS v, profiles AS p WHERE v.id = $1 AND p.id = $2
                ON CONFLICT (viewer) DO UPDATE SET after_key = excluded.after_key
                """, [.text(viewer), .text(profile)])
        }
    }

    /// Where `viewer`'s likers of `kind` resume, as the feed leaves it
    /// (a like at or after it sends them back: the decision's step).
    static func setLikersCursor(_ store: some SQLDatabase, viewer: String, kind: Decision, at: String) throws {
        try store.write {
            try store.executor.run(
                """
                INSERT INTO liker_cursors (viewer, decision, after_at, after_key)
                SELECT key, $2, $3, 0 FROM profiles WHERE id = $1
                ON CONFLICT (viewer, decision) DO UPDATE SET after_at = excluded.after_at
                """, [.text(viewer), .text(kind.rawValue), .text(at)])
        }
    }

    /// What a step answered, as text: the value it returned or the error's words.
    static func answer(_ step: Step, _ store: any SwipeDatabase, at date: Date) -> String {
        do {
            switch step.action {
            case .decide(let viewer, let profile, let decision):
                let recorded = try store.record(
                    viewer: viewer, profile: profile, decision: decision, via: .button, at: date)
                return "recorded \(recorded)"
            case .undo(let viewer, let profile):
                return "undone \(try store.undo(viewer: viewer, profile: profile, at: date))"
            case .send(let viewer, let profile, let clientID):
                let send = MessageSend(viewer: viewer, profile: profile, text: "hi", clientID: clientID, at: date)
                return "sent \(try store.send(send))"
            case .block(let viewer, let profile):
                return "blocked \(try store.block(viewer: viewer, profile: profile, at: date))"
            case .unblock(let viewer, let profile):
                try store.unblock(viewer: viewer, profile: profile)
                return "unblocked"
            case .rule(let name, let value):
                return "rules \(try store.setRule(name, value))"
            case .likersResume, .feedPassed:
                return "set"
            }
        } catch {
            return "refused \(error)"
        }
    }

    /// The rows the decisions wrote, by the people's ids.
    /// The matches among the four people `ids`, one line each, in the order they were made.
    static func matchRows(_ store: some SQLDatabase, _ ids: [SQLValue]) throws -> [String] {
        try store.executor.all(
            """
            SELECT l.id AS low, h.id AS high, m.matched_at, m.unmatched_at, m.expires_at
            FROM matches AS m JOIN profiles AS l ON l.key = m.low JOIN profiles AS h ON h.key = m.high
            WHERE l.id IN ($1, $2, $3, $4) ORDER BY m.matched_at, l.id, h.id
            """, ids
        ) {
            "match \(try $0.text("low")) \(try $0.text("high")) \(try $0.text("matched_at")) "
                + "\(try $0.optionalText("unmatched_at") ?? "-") \(try $0.optionalText("expires_at") ?? "-")"
        }
    }

    static func state(_ store: some SQLDatabase, _ people: [String]) throws -> [String] {
        let ids: [SQLValue] = people.map { .text($0) }
        let inRun = "IN ($1, $2, $3, $4)"
        var rows = try store.executor.all(
            """
            SELECT v.id AS viewer, p.id AS profile, d.decision, d.via, d.decided_at, d.undone_at
            FROM decisions AS d JOIN profiles AS v ON v.key = d.viewer JOIN profiles AS p ON p.key = d.profile
            WHERE v.id \(inRun) ORDER BY d.decided_at, v.id, p.id
            """, ids
        ) {
            "decision \(try $0.text("viewer")) \(try $0.text("profile")) \(try $0.text("decision")) "
                + "\(try $0.text("via")) \(try $0.text("decided_at")) \(try $0.optionalText("undone_at") ?? "-")"
        }
        rows += try matchRows(store, ids)
        rows += try store.executor.all(
            """
            SELECT a.id AS blocker, b.id AS blocked, k.blocked_at
            FROM blocks AS k JOIN profiles AS a ON a.key = k.blocker JOIN profiles AS b ON b.key = k.blocked
            WHERE a.id \(inRun) ORDER BY k.blocked_at, a.id, b.id
            """, ids
        ) { "block \(try $0.text("blocker")) \(try $0.text("blocked")) \(try $0.text("blocked_at"))" }
        rows += try store.executor.all(
            """
            SELECT p.id AS viewer, c.decision, c.after_at FROM liker_cursors AS c JOIN profiles AS p ON p.key = c.viewer
            WHERE p.id \(inRun) ORDER BY p.id, c.decision
            """, ids
        ) { "likers \(try $0.text("viewer")) \(try $0.text("decision")) \(try $0.text("after_at"))" }
        // Keys counted from the run's first person: the same on both backends.
        rows += try store.executor.all(
            """
            SELECT p.id AS viewer, c.after_key - (SELECT min(key) FROM profiles WHERE id \(inRun)) AS after
            FROM feed_cursors AS c JOIN profiles AS p ON p.key = c.viewer
            WHERE p.id \(inRun) ORDER BY p.id
            """, ids
        ) { "feed \(try $0.text("viewer")) \(try $0.int("after"))" }
        return rows
    }

    struct Step: CustomStringConvertible {
        enum Action {
            case decide(String, String, Decision)
            case undo(String, String)
            /// A message from the first to the second, under a client id of its own.
            case send(String, String, String)
            /// The first's feed has dealt everyone up to the second (by key).
            case feedPassed(String, String)
            case block(String, String)
            case unblock(String, String)
            case rule(String, String)
            /// The feed's likers' cursor of `viewer` for `kind`, this many seconds back.
            case likersResume(String, Decision, TimeInterval)
        }
        var action: Action
        /// Seconds from the step before: mostly one, sometimes hours, so
        /// the quota's 24-hour window fills and frees.
        var advance: TimeInterval

        static func random(_ random: inout SplitMix64, people: [String], ghost: String) -> Step {
            func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
            // A person now and then is one who does not exist, or the viewer themself.
            let viewer = random.next() % 40 == 0 ? ghost : pick(people)
            let profile = random.next() % 30 == 0 ? ghost : pick(people)
            let roll = random.next() % 100
            let action: Action =
                switch roll {
                case 0..<50: .decide(viewer, profile, pick([.like, .like, .superlike, .hate]))
                case 50..<70: .undo(viewer, profile)
                case 70..<73: .send(viewer, profile, "m\(random.next() % 1_000_000)")
                case 73..<75: .feedPassed(pick(people), pick(people))
                case 75..<81: .block(viewer, profile)
                case 81..<86: .unblock(viewer, profile)
                case 86..<92: .rule(pick(["likes-per-day", "superlikes-per-day"]), pick(["off", "0", "1", "2", "3"]))
                case 92..<94: .rule("match-expiry", pick(["off", "1", "48"]))
                case 94..<96: .rule("rewind", pick(["any", "last", "passes", "off"]))
                default: .likersResume(pick(people), pick([.like, .superlike]), pick([-30, 0, 0.001, 5, 7_200]))
                }
            let advance: TimeInterval = pick([0, 0.001, 1, 1, 1, 60, 3_600, 6 * 3_600, 20 * 3_600])
            return Step(action: action, advance: advance)
        }

        var description: String {
            switch action {
            case .decide(let v, let p, let d): "\(v) \(d.rawValue) \(p)"
            case .undo(let v, let p): "\(v) undo \(p)"
            case .send(let v, let p, let c): "\(v) sends \(p) (\(c))"
            case .feedPassed(let v, let p): "\(v)'s feed passed \(p)"
            case .block(let v, let p): "\(v) block \(p)"
            case .unblock(let v, let p): "\(v) unblock \(p)"
            case .rule(let n, let v): "rule \(n)=\(v)"
            case .likersResume(let v, let d, let back): "\(v)'s \(d.rawValue) likers resume \(back) s back"
            }
        }
    }
}
