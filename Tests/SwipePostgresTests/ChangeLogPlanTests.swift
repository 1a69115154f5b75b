import Foundation
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipePostgres

/// The change log's pages (`decisions(after:limit:)`, `messages(after:limit:)`,
/// read ten times a second by `swipe serve`'s change watcher) cost what they
/// return, whatever the planner guesses: the page is cut from the key's index
/// and every profile is reached by its key, with no join for the planner to
/// hash. Written as joins, the generic plan PostgreSQL keeps for a prepared
/// statement (a third of `decisions` for `key > $1`, by its default guess,
/// from statistics taken while the table was small) hashed all of `profiles`
/// on every check under `make bench-serve`: 12 to 35 ms a check (auto_explain).
/// Here the planner is denied nested loops and merge joins, as its guess
/// denied them there, and the pages must still read by key alone.
@Suite(.needsPostgres) struct ChangeLogPlanTests {
    /// The feed's plan tests' 20k profiles and 30k decisions, analysed.
    let plans: FeedPlanTests
    init() throws { plans = try FeedPlanTests() }

    @Test func thePagesReadByKeyWhateverThePlannerGuesses() throws {
        let connection = try plans.populated()
        try connection.execute(
            """
            INSERT INTO matches (low, high, matched_at)
            SELECT n, n + 1, '2026-11-20T00:00:00.000Z' FROM generate_series(1, 19999, 2) AS n;
            INSERT INTO messages (low, high, seq, sender, recipient, client_id, body, sent_at)
            SELECT n, n + 1, 1, n, n + 1, 'c' || n, 'hi', '2026-11-21T00:00:00.000Z'
            FROM generate_series(1, 19999, 2) AS n;
            ANALYZE matches, messages;
            SET enable_nestloop = off;
            SET enable_mergejoin = off;
            """)
        for (name, sql) in [
            ("changed_decisions", PostgresStore.changedDecisionsSQL),
            ("changed_messages", PostgresStore.changedMessagesSQL),
        ] {
            try connection.execute("PREPARE " + name + " AS " + sql)
            let plan = try connection.query("EXPLAIN EXECUTE " + name + "(29000, 500)").map { try $0.text(0) }
                .joined(separator: "\n")
            #expect(plan.contains("_pkey"), "\(name) does not walk the key's index:\n\(plan)")
            #expect(!plan.contains("Seq Scan"), "\(name) scans a table:\n\(plan)")
            #expect(!plan.contains("Hash"), "\(name) hashes a table:\n\(plan)")
            #expect(!plan.contains("Bitmap"), "\(name) reads a range by bitmap:\n\(plan)")
        }
        // And they answer: the newest page of decisions, the match the last one made told with names.
        try connection.execute(
            """
            INSERT INTO decisions (viewer, profile, decision, via, decided_at)
            VALUES (20000, 19999, 'like', 'drag', '2026-11-20T00:00:00.000Z')
            """)
        let store = try PostgresStore(uri: plans.database.uri, create: false)
        // Keys have gaps (a conflicting insert spends one): the four newest, oldest first.
        let keys = try connection.query("SELECT key FROM decisions ORDER BY key DESC LIMIT 4").map { try $0.int(0) }
            .reversed()
        let page = try store.decisions(after: keys.first!, limit: 500)
        #expect(page.map(\.key) == Array(keys.dropFirst()))
        #expect(page.map { $0.match == nil } == [true, true, false])
        #expect(
            page.last?.match
                == MatchNotice(
                    recipient: "p19999", liker: "p20000", likerName: "P", matchedAt: "2026-11-20T00:00:00.000Z"))
        #expect(try store.messages(after: 0, limit: 2).map(\.message.sender) == ["p1", "p3"])
    }
}
