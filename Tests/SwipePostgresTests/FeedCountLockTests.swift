import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// The impressions count against a decision in progress (README "Ranking"):
/// a decision holds its pair's `rank_stats` rows until it commits, and a
/// feed's bulk count of impressions that meets such a lock gives up within
/// its brief lock timeout instead of waiting for the server's deadlock check
/// (or failing the fetch). The fetch still deals; the count is left for the
/// next refill, which counts every impression once the lock is gone. (16
/// `swipe repl` processes liking at once emptied some decks before this.)
@Suite(.needsPostgres) struct FeedCountLockTests {
    let database: PostgresTestDatabase

    init() throws { database = try PostgresTestDatabase() }

    func dealtTotal(_ id: String, _ connection: PGConnection) throws -> Int {
        try connection.statement(
            "SELECT r.dealt_total FROM rank_stats AS r JOIN profiles AS p ON p.key = r.profile WHERE p.id = $1"
        ).first([.text(id)]) { try $0.int(0) } ?? 0
    }

    @Test(.timeLimit(.minutes(1))) func aCountThatMeetsALockIsLeftForTheNextRefill() throws {
        let connection = try database.connect()
        try connection.execute(FeedModelTests.schema)
        for id in ["v", "a", "b", "c", "d"] {
            try FeedModelTests.insert(Profile(id: id, name: "Name " + id, age: 30), connection)
        }
        // A window of one: every fetch ranks afresh, so every fetch counts.
        let feed = try PostgresFeed(connection: connection, viewer: "v", options: .init(window: 1, recentWindow: 0))
        let first = try #require(try feed.nextProfiles(limit: 1, excluding: []).first?.id)

        // Another session holds the first card's row, as a decision about it would until it commits.
        let decision = try database.connect()
        try decision.execute("BEGIN")
        let locked = try decision.statement(
            """
            INSERT INTO rank_stats (profile) SELECT key FROM profiles WHERE id = $1
            ON CONFLICT (profile) DO UPDATE SET given = rank_stats.given
            """
        ).run(.text(first))
        #expect(locked == 1)

        let second = try #require(try feed.nextProfiles(limit: 1, excluding: [first]).first?.id)
        #expect(second != first)
        #expect(feed.dealer.refills == 2)
        #expect(try dealtTotal(first, connection) == 0, "the count gave way to the lock")

        try decision.execute("COMMIT")
        let third = try #require(try feed.nextProfiles(limit: 1, excluding: [first, second]).first?.id)
        #expect(![first, second].contains(third))
        #expect(try dealtTotal(first, connection) == 1)
        #expect(try dealtTotal(second, connection) == 1)
    }
}
