import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import Logging
import NIOPosix
import SwipeCore
import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// An erasure made by another process (`swipe erase --as V` beside a running
/// `swipe serve`) reaches the open pages, on SQLite and PostgreSQL
/// (Documentation/PersonalData.md): V's own sockets close as signed out
/// (4001), V's card leaves the decks that hold it, and V's matches are told
/// `{"event":"unmatched","profile":V,"reason":"erased"}`; nobody else is
/// told anything. "Another process" is a store opened apart from the
/// server, as in `CrossProcessPushTests`. The sign-in check runs once an
/// hour here, so it is the erasure the server saw, not a token rechecked,
/// that closes V's socket.
@Suite struct CrossProcessErasePushTests {
    let stores = TestStores("swipe-erase-push")

    static func frames(_ inbound: WebSocketInboundStream) -> WebSocketInboundMessageStream.AsyncIterator {
        inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
    }

    /// The next event named `name` (answers and other events skipped),
    /// with every frame read on the way.
    static func next(
        _ name: String, _ frames: inout WebSocketInboundMessageStream.AsyncIterator, seen: inout [[String: Any]]
    ) async throws -> [String: Any]? {
        while case .text(let text) = try await frames.next() {
            let object = try ServerSocketTests.object(text)
            seen.append(object)
            if object["event"] as? String == name { return object }
        }
        return nil
    }

    /// The answer to `line`, events before it skipped.
    static func answer(
        _ line: String, _ outbound: WebSocketOutboundWriter, _ frames: inout WebSocketInboundMessageStream.AsyncIterator
    ) async throws -> [String: Any] {
        try await outbound.writeTextMessage(line)
        while case .text(let text) = try await frames.next() {
            let object = try ServerSocketTests.object(text)
            if object["event"] == nil { return object }
        }
        throw CancellationError()
    }

    static func cardIDs(_ answer: [String: Any]) -> Set<String> {
        Set((answer["cards"] as? [[String: Any]] ?? []).compactMap { $0["profile"] as? String })
    }

    @Test(.timeLimit(.minutes(2)), arguments: TestBackend.all) func anEraseByAnotherProcessReachesTheOpenPages(
        _ kind: TestBackend
    ) async throws {
        // alice and bob match; carol's deck holds everyone (alice included); dave watches.
        let store = try stores.store(kind, profiles: ["alice", "bob", "carol", "dave"])
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .button)
        _ = try store.record(viewer: "alice", profile: "bob", decision: .like, via: .button)
        let secret = try #require(try store.accessSecret(create: true))
        let tokens = AccessTokens(secret: secret)
        let token = Dictionary(
            uniqueKeysWithValues: ["alice", "bob", "carol", "dave"].map {
                ($0, tokens.issue(viewer: $0, expiry: Date().addingTimeInterval(3600)))
            })
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        var configuration = ServeConfiguration.testing()
        configuration.signInCheckInterval = .seconds(3600)
        let server = try await SwipeServer(
            backend: try stores.serverBackend(kind), configuration: configuration,
            logger: CrossProcessPushTests.quiet, threadPool: pool)
        let bobSaw = Box<[[String: Any]]>(), carolSaw = Box<[[String: Any]]>(), daveSaw = Box<[[String: Any]]>()
        let deckBefore = Box<Set<String>>(), deckAfter = Box<Set<String>>()
        let aliceClosed = Box<WebSocketCloseFrame>()
        let stores = stores
        _ = try await server.application().test(.live) { client in
            try await client.ws("/ws?token=" + token["dave"]!, configuration: ServerSocketTests.client) {
                daveIn, daveOut, _ in
                var dave = Self.frames(daveIn)
                _ = try await dave.next()  // hello
                try await client.ws("/ws?token=" + token["bob"]!, configuration: ServerSocketTests.client) {
                    bobIn, bobOut, _ in
                    var bob = Self.frames(bobIn)
                    _ = try await bob.next()  // hello
                    try await client.ws("/ws?token=" + token["carol"]!, configuration: ServerSocketTests.client) {
                        carolIn, carolOut, _ in
                        var carol = Self.frames(carolIn)
                        _ = try await carol.next()  // hello
                        deckBefore.value = Self.cardIDs(try await Self.answer("deck", carolOut, &carol))
                        aliceClosed.value = try await client.ws(
                            "/ws?token=" + token["alice"]!, configuration: ServerSocketTests.client
                        ) { aliceIn, _, _ in
                            var alice = Self.frames(aliceIn)
                            _ = try await alice.next()  // hello: alice's socket is registered
                            // Another process erases alice.
                            _ = try stores.open(kind, create: false).erase(viewer: "alice", at: nil)
                            while try await alice.next() != nil {}
                        }
                        var seen: [[String: Any]] = []
                        _ = try await Self.next("deck-changed", &carol, seen: &seen)
                        carolSaw.value = seen
                        deckAfter.value = Self.cardIDs(try await Self.answer("deck", carolOut, &carol))
                        try await carolOut.close(.normalClosure, reason: nil)
                    }
                    var seen: [[String: Any]] = []
                    _ = try await Self.next("unmatched", &bob, seen: &seen)
                    bobSaw.value = seen
                    // bob's deck: alice was matched, so never in it; a `deck`
                    // after the push answers as any other.
                    _ = try await Self.answer("deck", bobOut, &bob)
                    try await bobOut.close(.normalClosure, reason: nil)
                }
                // dave never matched alice: whatever his deck was told,
                // no `unmatched` reaches him before his answer to `matches`.
                var seen: [[String: Any]] = []
                try await daveOut.writeTextMessage("matches")
                while case .text(let text) = try await dave.next() {
                    let object = try ServerSocketTests.object(text)
                    seen.append(object)
                    if object["command"] as? String == "matches" { break }
                }
                daveSaw.value = seen
                try await daveOut.close(.normalClosure, reason: nil)
            }
        }
        await server.stop()

        #expect(deckBefore.value?.contains("alice") == true, "carol's deck held alice: \(deckBefore.value ?? [])")
        #expect(aliceClosed.value?.closeCode == .unknown(4001))
        #expect(aliceClosed.value?.reason == "signed out")
        let unmatched = try #require(bobSaw.value?.last)
        #expect(unmatched["event"] as? String == "unmatched")
        #expect(unmatched["profile"] as? String == "alice")
        #expect(unmatched["reason"] as? String == "erased")
        #expect(
            bobSaw.value?.filter { $0["event"] as? String == "unmatched" }.count == 1,
            "told once: \(bobSaw.value ?? [])")
        #expect(
            carolSaw.value?.contains { $0["event"] as? String == "unmatched" } == false, "carol had no match with alice"
        )
        #expect(deckAfter.value?.contains("alice") == false, "alice's card left carol's deck: \(deckAfter.value ?? [])")
        #expect(daveSaw.value?.last?["command"] as? String == "matches")
        #expect(daveSaw.value?.contains { $0["event"] as? String == "unmatched" } == false, "\(daveSaw.value ?? [])")
        // What the push said is what the tables hold.
        let after = try stores.open(kind, create: false)
        #expect(try after.profile(id: "alice") == nil)
        #expect(try after.matches(viewer: "bob").isEmpty)
    }

    /// An erase moves the count of erasures (a row that names nobody), and
    /// the watcher sweeps once for it.
    @Test func anEraseMovesACountNamingNobodyAndTheWatcherSweepsOnce() throws {
        let store = try stores.store(.sqlite, profiles: ["a", "b"])
        let backend = try stores.serverBackend(.sqlite)
        let swept = Box<Int>()
        swept.value = 0
        let watcher = ChangeWatcher(
            backend: backend, logger: CrossProcessPushTests.quiet, pushMatch: { _ in }, pushMessage: { _ in },
            sweepErasures: { _ in
                swept.value! += 1
                return 0
            })
        try watcher.prime()
        #expect(try watcher.check() == 0)
        #expect(swept.value == 0, "nothing moved: no sweep")
        _ = try store.erase(viewer: "a", at: nil)
        #expect(try watcher.check() == 0)
        #expect(swept.value == 1, "one erasure: one sweep")
        #expect(try watcher.check() == 0)
        #expect(swept.value == 1, "and not again")
        #expect(try store.changeMarks().erasures == 1)
        // The count names nobody: no settings row holds "a".
        #expect(try LiveSchema(store).settingsMentioning("a") == 0)
    }
}
