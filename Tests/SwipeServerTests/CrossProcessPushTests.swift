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
import Synchronization
import Testing
import WSClient

@testable import SwipeServer

/// What another process stores reaches the open sockets of `swipe serve`
/// (Documentation/Serve.md, "Pushes across processes"): the change watcher
/// reads the store's change log, on SQLite and PostgreSQL alike. "Another
/// process" is here a store opened apart from the server: the server can
/// only learn of its writes from the database.
@Suite struct CrossProcessPushTests {
    let stores = TestStores("swipe-push")

    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// 1,100 matches made by `import --decisions` while nothing was read
    /// (on PostgreSQL: every connection of the server cut meanwhile), then
    /// three messages: one check pushes every one of them, each once, as
    /// the tables hold them (the liker is whose like came second); the
    /// next check pushes nothing.
    @Test(arguments: TestBackend.all) func everyMatchMadeElsewhereIsPushedOncePagingThroughAll(
        _ kind: TestBackend
    ) throws {
        let count = 1_100
        let store = try stores.open(kind)
        let ids = ["a"] + (0..<count).map { String(format: "x%04d", $0) }
        let profiles = stores.folder.path + "/profiles.csv"
        try ("id,name,age\n" + ids.map { "\($0),Name \($0),30\n" }.joined()).write(
            toFile: profiles, atomically: true, encoding: .utf8)
        _ = try store.importProfiles(path: profiles, options: ImportOptions())

        let backend = try stores.serverBackend(kind)
        let matches = Mutex<[MatchNotice]>([]), messages = Mutex<[MessageNotice]>([])
        let watcher = ChangeWatcher(
            backend: backend, logger: Self.quiet,
            pushMatch: { notice in matches.withLock { $0.append(notice) } },
            pushMessage: { notice in messages.withLock { $0.append(notice) } })
        try watcher.prime()
        #expect(try watcher.check() == 0)

        if kind == .postgres {
            let admin = try PGConnection(uri: try stores.location(kind))
            _ = try admin.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
                """)
        }
        // a likes everyone first; each likes a back a second later: each x made the match.
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var csv = "viewer,profile,decision,decided_at\n"
        for (index, id) in ids.dropFirst().enumerated() {
            csv += "a,\(id),like,\(Timestamp.string(from: start.addingTimeInterval(Double(index))))\n"
        }
        for (index, id) in ids.dropFirst().enumerated() {
            csv += "\(id),a,like,\(Timestamp.string(from: start.addingTimeInterval(Double(index) + 5000)))\n"
        }
        let decisions = stores.folder.path + "/decisions.csv"
        try csv.write(toFile: decisions, atomically: true, encoding: .utf8)
        let other = try stores.open(kind, create: false)
        _ = try other.importDecisions(path: decisions, options: ImportOptions())
        for (index, text) in ["one", "two", "three"].enumerated() {
            let (from, to) = index == 1 ? ("x0007", "a") : ("a", "x0007")
            _ = try other.send(MessageSend(viewer: from, profile: to, text: text, clientID: "c\(index)"))
        }

        // A server connection cut by the outage fails once, then reconnects.
        var pushed: Int?
        for _ in 0..<3 where pushed == nil { pushed = try? watcher.check() }
        #expect(pushed == count + 3)
        let expected = ids.dropFirst().enumerated().map { index, id in
            MatchNotice(
                recipient: "a", liker: id, likerName: "Name " + id,
                matchedAt: Timestamp.string(from: start.addingTimeInterval(Double(index) + 5000)))
        }
        let gotMatches = matches.withLock { $0 }, gotMessages = messages.withLock { $0 }
        #expect(gotMatches == expected)
        #expect(gotMessages.map(\.message.text) == ["one", "two", "three"])
        #expect(gotMessages.map(\.message.seq) == [1, 2, 3])
        #expect(gotMessages.map(\.message.recipient) == ["x0007", "a", "x0007"])
        #expect(gotMessages.map(\.senderName) == ["Name a", "Name x0007", "Name a"])
        #expect(try watcher.check() == 0)
        let total = matches.withLock { $0.count }
        #expect(total == count)
    }

    /// A match or message this server's own sessions pushed is not pushed
    /// again when the watcher reads it.
    @Test func whatThisServerPushedItselfIsNotPushedAgain() throws {
        let store = try stores.store(.sqlite, profiles: ["a", "b"])
        let backend = try stores.serverBackend(.sqlite)
        let pushed = Mutex(0)
        let watcher = ChangeWatcher(
            backend: backend, logger: Self.quiet, pushMatch: { _ in pushed.withLock { $0 += 1 } },
            pushMessage: { _ in pushed.withLock { $0 += 1 } })
        try watcher.prime()
        // The likes a second apart: two likes in one millisecond make a match
        // told to both sides (`ChangeWatcher.key`), and this server's session
        // told only a.
        let now = Date()
        _ = try store.record(
            viewer: "a", profile: "b", decision: .like, via: .button, at: now.addingTimeInterval(-1))
        let made = try store.record(viewer: "b", profile: "a", decision: .like, via: .button, at: now)
        let sent = try store.send(MessageSend(viewer: "a", profile: "b", text: "hi", clientID: "c"))
        #expect(
            watcher.claim(
                ChangeWatcher.key(
                    MatchNotice(
                        recipient: "a", liker: "b", likerName: "Name b",
                        matchedAt: try #require(made.match?.matchedAt)))))
        #expect(watcher.claim(ChangeWatcher.key(sent.message)))
        #expect(try watcher.check() == 0)
        let total = pushed.withLock { $0 }
        #expect(total == 0)
    }

    /// Rows deleted from the end of a log (a person erased) give their keys
    /// out again on SQLite: a match made with a reused key is still pushed.
    @Test func aMatchWithAKeyReusedAfterADeletionIsPushed() throws {
        let store = try stores.store(.sqlite, profiles: ["a", "b", "c"])
        _ = try store.record(viewer: "c", profile: "a", decision: .hate, via: .button)
        _ = try store.record(viewer: "c", profile: "b", decision: .hate, via: .button)
        let backend = try stores.serverBackend(.sqlite)
        let pushed = Mutex<[MatchNotice]>([])
        let watcher = ChangeWatcher(
            backend: backend, logger: Self.quiet, pushMatch: { notice in pushed.withLock { $0.append(notice) } },
            pushMessage: { _ in })
        try watcher.prime()
        let raw = try SQLiteStore(path: try stores.location(.sqlite), create: false)
        try raw.connection.execute("DELETE FROM decisions")
        #expect(try watcher.check() == 0)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try store.record(viewer: "a", profile: "b", decision: .like, via: .button, at: start)
        _ = try store.record(viewer: "b", profile: "a", decision: .like, via: .button, at: start + 1)
        #expect(try watcher.check() == 1)
        let got = pushed.withLock { $0 }
        #expect(got.map(\.recipient) == ["a"] && got.map(\.liker) == ["b"])
    }

    /// PostgreSQL keys need not commit in their order: a key skipped over
    /// (its transaction still open) is read again until it shows up.
    @Test func aKeyCommittedAfterANewerOneIsStillRead() {
        var trail = KeyTrail(newest: 4)
        let now = ContinuousClock.now
        let seven = trail.take(7, at: now)
        #expect(seven)
        #expect(trail.floor == 4)
        let sevenAgain = trail.take(7, at: now)
        #expect(!sevenAgain)
        let five = trail.take(5, at: now)
        #expect(five)
        #expect(trail.floor == 5)
        trail.expire(before: now + .seconds(1))
        #expect(trail.floor == 7)
        let six = trail.take(6, at: now)
        #expect(!six, "a gap given up is not read")
    }

    // MARK: end to end, over a socket

    func server(_ kind: TestBackend, pool: NIOThreadPool) async throws -> SwipeServer {
        try await SwipeServer(
            backend: try stores.serverBackend(kind), configuration: ServeConfiguration.testing(), logger: Self.quiet,
            threadPool: pool)
    }

    /// bob's page is open; another process makes his match with alice and
    /// sends him a message: both reach his socket, read from the tables. On
    /// PostgreSQL a forged NOTIFY (a real-looking payload naming a match
    /// that does not exist) comes first and is not pushed.
    @Test(arguments: TestBackend.all) func aMatchAndAMessageFromAnotherProcessReachTheSocket(_ kind: TestBackend)
        async throws
    {
        let store = try stores.store(kind, profiles: ["alice", "bob", "carol"])
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .button)
        let secret = try #require(try store.accessSecret(create: true))
        let token = AccessTokens(secret: secret).issue(viewer: "bob", expiry: Date().addingTimeInterval(3600))
        let location = try stores.location(kind)
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        let server = try await server(kind, pool: pool)
        let events = Box<[[String: Any]]>()
        events.value = []
        _ = try await server.application().test(.live) { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) {
                inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await frames.next()  // hello
                try await outbound.writeTextMessage("inbox")
                _ = try await frames.next()
                if kind == .postgres {
                    let forger = try PGConnection(uri: location)
                    try forger.notify(
                        PostgresMatchRelay.channel,
                        payload:
                            #"{"origin":"forged","recipient":"bob","liker":"carol","name":"FORGED","matched_at":"2026-11-24T00:00:00.000Z"}"#
                    )
                }
                // Without a push the test fails (the socket is closed after 30 s), not hangs.
                let deadline = Task {
                    try await Task.sleep(for: .seconds(30))
                    try await outbound.close(.normalClosure, reason: "no push in 30 s")
                }
                defer { deadline.cancel() }
                let other = try stores.open(kind, create: false)
                _ = try other.record(viewer: "alice", profile: "bob", decision: .like, via: .button)
                _ = try other.send(MessageSend(viewer: "alice", profile: "bob", text: "hi <b>bob</b>", clientID: "x"))
                while events.value!.count < 2, case .text(let text) = try await frames.next() {
                    let object = try ServerSocketTests.object(text)
                    if object["event"] != nil { events.value!.append(object) }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        await server.stop()
        let got = try #require(events.value)
        #expect(got.map { $0["event"] as? String } == ["match", "message"])
        #expect(got.first?["profile"] as? String == "alice")
        #expect(got.first?["name"] as? String == "Name alice")
        #expect(got.last?["text"] as? String == "hi <b>bob</b>")
        #expect(got.last?["seq"] as? Int == 1)
    }

    /// Pushes to one socket arrive in the order they were sent, however
    /// close together: each socket has one writer.
    @Test func twoHundredPushesArriveInOrder() async throws {
        let store = try stores.store(.sqlite, profiles: ["bob"])
        let secret = try #require(try store.accessSecret(create: true))
        let token = AccessTokens(secret: secret).issue(viewer: "bob", expiry: Date().addingTimeInterval(3600))
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        let server = try await server(.sqlite, pool: pool)
        let received = Box<[Int]>()
        received.value = []
        _ = try await server.application().test(.live) { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) {
                inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await frames.next()  // hello: the socket is registered
                let deadline = Task {
                    try await Task.sleep(for: .seconds(30))
                    try await outbound.close(.normalClosure, reason: "pushes missing after 30 s")
                }
                defer { deadline.cancel() }
                for index in 0..<200 { server.hub.send(#"{"event":"test","n":\#(index)}"#, to: "bob") }
                while received.value!.count < 200, case .text(let text) = try await frames.next() {
                    if let n = try ServerSocketTests.object(text)["n"] as? Int { received.value!.append(n) }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        await server.stop()
        #expect(received.value == Array(0..<200))
    }
}
