import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// Two people liking each other at the same instant, in two sessions, make
/// exactly one match: never none (each transaction missing the other's
/// uncommitted like, the READ COMMITTED race) and never two.
@Suite(.needsPostgres) struct PostgresMatchRaceTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    static let rounds = 300

    @Test func mutualLikesAtTheSameInstantMakeExactlyOneMatch() throws {
        let setup = try PostgresStore(uri: database.uri, create: true)
        _ = try setup.stats()  // the first call brings the schema
        // Round i: a-i and b-i, strangers until they like each other at once.
        try setup.connection.execute(
            """
            INSERT INTO profiles (id, name, age)
            SELECT side || '-' || i, side || i, 30 FROM generate_series(0, \(Self.rounds - 1)) AS i,
                   (VALUES ('a'), ('b')) AS s(side)
            """)
        let left = Racer(try PostgresStore(uri: database.uri, create: false))
        let right = Racer(try PostgresStore(uri: database.uri, create: false))
        var acknowledgedMatches = 0
        for round in 0..<Self.rounds {
            let (a, b) = ("a-\(round)", "b-\(round)")
            let results = try race(
                { try left.store.record(viewer: a, profile: b, decision: .like, via: .button) },
                { try right.store.record(viewer: b, profile: a, decision: .superlike, via: .drag) })
            let made = results.filter { $0.match != nil }
            #expect(made.count == 1, "round \(round): \(made.count) of the two likes reported a match")
            acknowledgedMatches += made.count
        }
        // The ledger, read independently: every pair holds two standing likes,
        // and the matches table exactly one row per pair.
        let pairs = try setup.connection.query(
            """
            SELECT m.low, m.high, count(*) OVER () FROM matches m
            JOIN decisions d1 ON d1.viewer = m.low AND d1.profile = m.high AND d1.undone_at IS NULL
            JOIN decisions d2 ON d2.viewer = m.high AND d2.profile = m.low AND d2.undone_at IS NULL
            """)
        #expect(pairs.count == Self.rounds)
        #expect(try setup.connection.scalarInt("SELECT count(*) FROM matches") == Self.rounds)
        #expect(try setup.connection.scalarInt("SELECT count(*) FROM decisions") == 2 * Self.rounds)
        #expect(acknowledgedMatches == Self.rounds)
        #expect(try setup.stats().matches == Self.rounds)
    }

    /// Runs `first` and `second` on two threads released together by a
    /// barrier, and returns both results (either's error is rethrown).
    func race<T: Sendable>(_ first: @escaping @Sendable () throws -> T, _ second: @escaping @Sendable () throws -> T)
        throws -> [T]
    {
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), done = DispatchGroup()
        let results = Results<T>()
        for (index, body) in [first, second].enumerated() {
            done.enter()
            Thread.detachNewThread {
                ready.signal()
                go.wait()
                results.set(index, Result { try body() })
                done.leave()
            }
        }
        ready.wait(); ready.wait()
        go.signal(); go.signal()
        #expect(done.wait(timeout: .now() + 120) == .success, "a racer did not finish within 120 s")
        return try results.values.map { try $0.get() }
    }
}

/// A store handed to one racing thread at a time.
final class Racer: @unchecked Sendable {
    let store: PostgresStore
    init(_ store: PostgresStore) { self.store = store }
}

/// Results written by the racing threads.
final class Results<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Int: Result<T, any Error>] = [:]
    func set(_ index: Int, _ result: Result<T, any Error>) { lock.withLock { slots[index] = result } }
    var values: [Result<T, any Error>] { lock.withLock { slots.sorted { $0.key < $1.key }.map(\.value) } }
}
