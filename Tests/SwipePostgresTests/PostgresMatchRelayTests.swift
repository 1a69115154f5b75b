import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Synchronization
import Testing

@testable import SwipePostgres

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
        let notice = MatchNotice(
            recipient: "bob", liker: "alice", likerName: "Alice \"A\" ✓",
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

    /// Publishing never waits for the server: notices queue and go out in
    /// batches of one statement each. 300 published at once all arrive, once
    /// each and in order, names with quotes, backslashes, newlines and emoji intact.
    @Test func manyMatchesPublishedAtOnceAllArriveOnceInOrder() async throws {
        let first = PostgresMatchRelay(uri: database.uri)
        let second = PostgresMatchRelay(uri: database.uri)
        let received = Mutex<[MatchNotice]>([])
        try second.start { notice in received.withLock { $0.append(notice) } }
        defer { second.stop() }
        let sent = (0..<300).map { index in
            MatchNotice(
                recipient: "r\(index)", liker: "l\(index)", likerName: "N \"\(index)\" \\ \n ❤️",
                matchedAt: "2026-11-23T16:00:00.000Z")
        }
        for notice in sent { first.publish(notice) }
        first.stop()  // returns once the outbox is sent
        #expect(await eventually { received.withLock { $0.count >= sent.count } })
        #expect(received.withLock { $0 } == sent)
    }

    /// NOTIFY refuses payloads of 8000 bytes; a name that long is left out
    /// (the socket's event then has no name) rather than the match.
    @Test func aNameTooLongForNotifyIsLeftOutNotTheMatch() async throws {
        let first = PostgresMatchRelay(uri: database.uri)
        let second = PostgresMatchRelay(uri: database.uri)
        let received = Mutex<[MatchNotice]>([])
        try second.start { notice in received.withLock { $0.append(notice) } }
        defer { second.stop() }
        first.publish(
            MatchNotice(
                recipient: "bob", liker: "alice", likerName: String(repeating: "n", count: 9000),
                matchedAt: "2026-11-23T16:00:00.000Z"))
        #expect(await eventually { received.withLock { !$0.isEmpty } })
        #expect(
            received.withLock { $0 } == [
                MatchNotice(
                    recipient: "bob", liker: "alice", likerName: nil,
                    matchedAt: "2026-11-23T16:00:00.000Z")
            ])
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

    /// A listener cut off (its server process ended) listens again and
    /// pushes the match whose notification it never heard: here one made
    /// straight in the store, which nobody notifies. A match it had already
    /// pushed is not pushed again.
    @Test func aMatchMissedWhileTheListenerWasCutOffIsPushedOnceItListensAgain() async throws {
        let store = try PostgresStore(uri: database.uri, create: true)
        for id in ["alice", "bob", "carol", "dave"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        let relay = PostgresMatchRelay(uri: database.uri)
        let received = Mutex<[MatchNotice]>([])
        try relay.start { notice in received.withLock { $0.append(notice) } }
        defer { relay.stop() }

        // Heard live: carol and dave match, and carol's serve process notifies it.
        try store.record(viewer: "dave", profile: "carol", decision: .like, via: .button)
        let live = try store.record(viewer: "carol", profile: "dave", decision: .like, via: .button)
        let liveNotice = MatchNotice(
            recipient: "dave", liker: "carol", likerName: "Name carol",
            matchedAt: try #require(live.match?.matchedAt))
        PostgresMatchRelay(uri: database.uri).publish(liveNotice)
        #expect(await eventually { received.withLock { !$0.isEmpty } })

        // Never notified: bob likes alice back with nobody relaying it.
        try store.record(viewer: "alice", profile: "bob", decision: .like, via: .button)
        let missed = try store.record(viewer: "bob", profile: "alice", decision: .superlike, via: .button)
        let matchedAt = try #require(missed.match?.matchedAt)

        let cutOff = try #require(relay.listeningBackendPID)
        let admin = try PGConnection(uri: database.uri)
        _ = try admin.query("SELECT pg_terminate_backend($1)", .int(Int(cutOff)))
        #expect(await eventually { received.withLock { $0.count >= 2 } })
        #expect(await eventually { relay.listeningBackendPID.map { $0 != cutOff } ?? false })
        #expect(
            received.withLock { $0 } == [
                liveNotice,
                MatchNotice(recipient: "alice", liker: "bob", likerName: "Name bob", matchedAt: matchedAt),
            ])
    }

    /// The catch-up query names the side whose like came second as the liker.
    @Test func theMatchLogNamesWhoseLikeMadeTheMatch() throws {
        let store = try PostgresStore(uri: database.uri, create: true)
        for id in ["a", "b", "c"] { try store.upsert(Profile(id: id, name: id.uppercased(), age: 30)) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try store.record(viewer: "b", profile: "a", decision: .like, via: .button, at: start)
        try store.record(viewer: "a", profile: "b", decision: .like, via: .drag, at: start.addingTimeInterval(5))
        try store.record(viewer: "c", profile: "a", decision: .like, via: .button, at: start.addingTimeInterval(1))
        try store.record(viewer: "a", profile: "c", decision: .hate, via: .button, at: start.addingTimeInterval(6))
        let connection = try PGConnection(uri: database.uri)
        let all = try PostgresMatchLog.made(since: Timestamp.string(from: start), on: connection)
        #expect(
            all == [
                PostgresMatchLog.Made(
                    recipient: "b", liker: "a", likerName: "A",
                    matchedAt: Timestamp.string(from: start.addingTimeInterval(5)))
            ])
        #expect(
            try PostgresMatchLog.made(since: Timestamp.string(from: start.addingTimeInterval(6)), on: connection)
                .isEmpty)
    }
}
