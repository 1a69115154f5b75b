import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import Logging
import NIOPosix
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// `swipe serve` on PostgreSQL: two server processes (here two servers in
/// one process, each with its own pool and relay) on one database. A like
/// on one makes a match that reaches the other viewer's socket on the other.
@Suite(.needsPostgres) struct PostgresServeTests {
    let database: PostgresTestDatabase

    init() throws {
        database = try PostgresTestDatabase()
        let store = try PostgresStore(uri: database.uri, create: true)
        for id in ["alice", "bob", "carol"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
    }

    func server(_ pool: NIOThreadPool) async throws -> SwipeServer {
        let uri = database.uri
        let backend = try DatabaseServerBackend(
            writes: .concurrent, connections: 2,
            relay: PostgresMatchRelay(uri: uri)
        ) {
            try PostgresStore(uri: uri, create: false)
        }
        return try await SwipeServer(
            backend: backend, configuration: ServeConfiguration.testing(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, threadPool: pool)
    }

    /// 40 sessions at once over 3 PostgreSQL connections, writing side by
    /// side: every like stored once, every mutual pair matched once.
    @Test func manySessionsShareAFewConnections() async throws {
        let uri = database.uri
        let store = try PostgresStore(uri: uri, create: false)
        let viewers = (0..<40).map { "v\($0)" }
        for id in viewers { try store.upsert(Profile(id: id, name: id, age: 30)) }
        let backend = try DatabaseServerBackend(writes: .concurrent, connections: 3) {
            try PostgresStore(uri: uri, create: false)
        }
        try await DatabaseServerBackendTests.everyoneLikesEveryone(
            backend, connections: 3, store: store,
            viewers: viewers, others: 3)
    }

    @Test func aLikeOnOneServerPushesTheMatchToASocketOnTheOther() async throws {
        let secret = try #require(try PostgresStore(uri: database.uri, create: false).accessSecret(create: true))
        let tokens = AccessTokens(secret: secret)
        let expiry = Date().addingTimeInterval(3600)
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        let first = try await server(pool), second = try await server(pool)
        let pushed = Box<[String: Any]>()
        let likeAnswer = Box<[String: Any]>()
        try await second.application().test(.live) { bobsServer in
            try await first.application().test(.live) { alicesServer in
                let bobReady = AsyncStream<Void>.makeStream()
                let bob = Task {
                    defer { bobReady.continuation.finish() }
                    try await bobsServer.ws(
                        "/ws?token=" + tokens.issue(viewer: "bob", expiry: expiry),
                        configuration: ServerSocketTests.client
                    ) { inbound, outbound, _ in
                        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                        _ = try await messages.next()  // hello
                        try await outbound.writeTextMessage("like")  // bob likes alice, his first card
                        _ = try await messages.next()
                        bobReady.continuation.yield()
                        while case .text(let text) = try await messages.next() {
                            let object = try ServerSocketTests.object(text)
                            if object["event"] as? String == "match" { pushed.value = object; break }
                        }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
                for await _ in bobReady.stream { break }
                try await alicesServer.ws(
                    "/ws?token=" + tokens.issue(viewer: "alice", expiry: expiry),
                    configuration: ServerSocketTests.client
                ) { inbound, outbound, _ in
                    likeAnswer.value = try await ServerSocketTests.exchange(
                        ["like"], inbound: inbound, outbound: outbound
                    )
                    .answers.first
                    try await outbound.close(.normalClosure, reason: nil)
                }
                // The push has a generous while to arrive; without it the test fails, not hangs.
                _ = await eventually(within: 60) { pushed.value != nil }
                bob.cancel()
                _ = try? await bob.value
            }
        }
        await first.stop()
        await second.stop()
        let answer = try #require(likeAnswer.value)
        #expect((answer["decision"] as? [String: Any])?["profile"] as? String == "bob")
        #expect(answer["match"] as? Bool == true)
        let event = try #require(pushed.value)
        #expect(event["profile"] as? String == "alice")
        #expect(event["name"] as? String == "Name alice")
        // Exactly one match, stored once.
        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try store.matches(viewer: "bob").map(\.profile) == ["alice"])
    }
}
