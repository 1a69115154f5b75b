import Foundation
import Synchronization
import SwipePostgres
import Testing
@testable import SwipeServer

/// Matches between serve processes on one PostgreSQL database: what one
/// relay publishes, the others deliver; nobody delivers their own.
@Suite(.needsPostgres) struct PostgresMatchRelayTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func aMatchPublishedByOneProcessReachesTheOtherOnly() async throws {
        let first = PostgresMatchRelay(uri: database.uri)
        let second = PostgresMatchRelay(uri: database.uri)
        let atFirst = Mutex<[MatchNotice]>([]), atSecond = Mutex<[MatchNotice]>([])
        try first.start { notice in atFirst.withLock { $0.append(notice) } }
        try second.start { notice in atSecond.withLock { $0.append(notice) } }
        defer { first.stop(); second.stop() }
        let notice = MatchNotice(recipient: "bob", liker: "alice", likerName: "Alice \"A\" ✓",
                                 matchedAt: "2026-11-23T16:00:00.000Z")
        first.publish(notice)
        let arrived = await eventually { atSecond.withLock { !$0.isEmpty } }
        #expect(arrived)
        #expect(atSecond.withLock { $0 } == [notice])
        // The other way, and the first never saw its own.
        let back = MatchNotice(recipient: "alice", liker: "bob", likerName: nil, matchedAt: "2026-11-23T16:00:01.000Z")
        second.publish(back)
        #expect(await eventually { atFirst.withLock { !$0.isEmpty } })
        #expect(atFirst.withLock { $0 } == [back])
        #expect(atSecond.withLock { $0 } == [notice])
    }

    /// NOTIFY refuses payloads of 8000 bytes; a name that long is left out
    /// (the socket's event then has no name) rather than the match.
    @Test func aNameTooLongForNotifyIsLeftOutNotTheMatch() async throws {
        let first = PostgresMatchRelay(uri: database.uri)
        let second = PostgresMatchRelay(uri: database.uri)
        let received = Mutex<[MatchNotice]>([])
        try second.start { notice in received.withLock { $0.append(notice) } }
        defer { second.stop() }
        first.publish(MatchNotice(recipient: "bob", liker: "alice", likerName: String(repeating: "n", count: 9000),
                                  matchedAt: "2026-11-23T16:00:00.000Z"))
        #expect(await eventually { received.withLock { !$0.isEmpty } })
        #expect(received.withLock { $0 } == [MatchNotice(recipient: "bob", liker: "alice", likerName: nil,
                                                        matchedAt: "2026-11-23T16:00:00.000Z")])
    }

    /// Anything on the channel that is not a relay's payload is ignored.
    @Test func foreignPayloadsAreIgnored() async throws {
        let relay = PostgresMatchRelay(uri: database.uri)
        let received = Mutex<[MatchNotice]>([])
        try relay.start { notice in received.withLock { $0.append(notice) } }
        defer { relay.stop() }
        let sender = try PGConnection(uri: database.uri)
        try sender.notify(PostgresMatchRelay.channel, payload: "not json")
        try sender.notify(PostgresMatchRelay.channel, payload: #"{"origin":"x","recipient":"bob"}"#)
        let good = MatchNotice(recipient: "bob", liker: "carol", likerName: "C", matchedAt: "2026-11-23T16:00:02.000Z")
        PostgresMatchRelay(uri: database.uri).publish(good)
        #expect(await eventually { received.withLock { !$0.isEmpty } })
        #expect(received.withLock { $0 } == [good])
    }
}
