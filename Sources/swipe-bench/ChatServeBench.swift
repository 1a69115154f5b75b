import Foundation
import HummingbirdWSClient
import Logging
import SwipeCore
import SwipePostgres
import SwipeSQLite
import SwipeServer
import SwipeStore
import Synchronization

/// Conversations on `swipe serve` under load (BENCHMARKS.md, the serve rows and the method,
/// the chat rows; Documentation/Serve.md): `sessions` WebSockets on loopback,
/// half of them matched to the other half (100 pairs for 200 sockets), each
/// sending its match `messages` messages, one per `pacing`, the sockets'
/// starts spread over one pause. Delivery latency is measured from just
/// before a `say` is written to the moment the recipient's socket reads its
/// `{"event":"message"}` push, on one clock (both ends are in this process).
/// Every acknowledged message must arrive exactly once and be stored once;
/// one that arrives twice, never, or unacknowledged is counted.
struct ChatServeBench: Sendable {
    let data: DataSet
    /// The data set's SQLite working copy or a `postgres://` URI of the same data.
    var database: String
    let swipe: String
    let sessions: Int
    var messages = 100
    var pacing: Duration = .milliseconds(100)
    /// Where this run's viewers start (`ServeBench.viewer`), past the load runs' people.
    var viewerOffset: Int

    private var isPostgres: Bool { database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") }
    private var backend: String { isPostgres ? " on PostgreSQL" : "" }

    private func openStore() throws -> any SwipeDatabase {
        isPostgres ? try PostgresStore(uri: database, create: false) : try SQLiteStore(path: database, create: false)
    }

    /// The people of socket 0, 1, …: the load runs' sequence of viewers, from `viewerOffset` on.
    private func viewers(_ count: Int) -> [String] {
        let people = ServeBench(data: data, database: database, swipe: swipe, sessions: sessions, pacing: pacing)
        return (0..<count).map { people.viewer(viewerOffset + $0) }
    }

    /// Socket `index`'s match: sockets 2k and 2k+1 are a pair.
    private static func partner(of index: Int) -> Int { index ^ 1 }

    func run() async throws -> [ReportRow] {
        let pairs = sessions / 2
        guard pairs >= 1 else { throw BenchError("the chat rows need at least 2 sockets") }
        let count = pairs * 2
        let viewers = viewers(count)
        let store = try openStore()
        log("serve chat\(backend): matching \(pairs) pairs …")
        for pair in 0..<pairs {
            let (a, b) = (viewers[2 * pair], viewers[2 * pair + 1])
            // (A like the data set already holds is as good.)
            for (viewer, profile) in [(a, b), (b, a)] {
                do {
                    _ = try store.record(viewer: viewer, profile: profile, decision: .like, via: .button)
                } catch StoreError.alreadyDecided {}
            }
            guard try store.matches(viewer: a).contains(where: { $0.profile == b }) else {
                throw BenchError("\(a) and \(b) did not match")
            }
        }
        // The load sends 10 messages a second to one person, beyond the abuse
        // limit a person meets (rule messages-per-minute, 10 a minute): the
        // bench measures delivery, so the limit is raised for its database.
        _ = try store.setRule("messages-per-minute", "1000000")
        let server = try ServedProcess(swipe: swipe, database: database)
        defer { server.stop() }
        let tokens = AccessTokens(secret: try store.accessSecret(create: true) ?? "")
        let expiry = Date().addingTimeInterval(3600)
        let label =
            "\(count) sockets (\(pairs) pairs), 1 message per \(pacing) each, staggered"
        log("serve chat\(backend): \(label), \(messages) messages each …")

        let ledger = ChatLedger()
        let opened = Counter()
        let failed = Counter()
        let nonce = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let results = try await withThrowingTaskGroup(of: ChatSocketResult?.self) { group in
            for index in 0..<count {
                let token = tokens.issue(viewer: viewers[index], expiry: expiry)
                let partner = viewers[Self.partner(of: index)]
                group.addTask { [messages, pacing] in
                    do {
                        return try await Self.runSocket(
                            port: server.port, token: token, index: index, partner: partner,
                            prefix: "\(nonce)-\(index)-", messages: messages, pacing: pacing,
                            delay: pacing * index / count, opened: opened, ledger: ledger)
                    } catch {
                        // Counted, not fatal: the others go on, and the rows say it.
                        log("serve chat: socket \(index) failed: \(error)")
                        failed.increment()
                        return ChatSocketResult(index: index, errors: messages)
                    }
                }
            }
            group.addTask {
                let deadline = Clock.now() + 120
                while opened.value + failed.value < count, Clock.now() < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
                opened.release()
                return nil
            }
            var results: [ChatSocketResult] = []
            while let result = try await group.next() {
                if let result { results.append(result) }
            }
            return results
        }

        // Exactly once: every acknowledged send arrived once; nothing else arrived.
        let tally = ledger.tally()
        let acknowledged = results.flatMap(\.acknowledged)
        var arrivedOnce = 0
        var lost = 0
        var doubled = 0
        for token in acknowledged {
            switch tally.arrivals[token] ?? 0 {
            case 0: lost += 1
            case 1: arrivedOnce += 1
            default: doubled += 1
            }
        }
        let acknowledgedSet = Set(acknowledged)
        let unacknowledged = tally.arrivals.keys.filter { !acknowledgedSet.contains($0) }.count
        let errors = results.reduce(0) { $0 + $1.errors }
        // Stored once: each pair's conversation holds exactly its acknowledged texts.
        var storedOnce = 0
        var storedExtra = 0
        for pair in 0..<pairs {
            let stored = try store.messages(
                MessageQuery(viewer: viewers[2 * pair], profile: viewers[2 * pair + 1], markRead: false)
            ).map(\.text)
            let expected = Set(
                results.filter { $0.index / 2 == pair }.flatMap(\.acknowledged).map { ChatLedger.text(for: $0) })
            var seen: [String: Int] = [:]
            for text in stored { seen[text, default: 0] += 1 }
            storedOnce += expected.filter { seen[$0] == 1 }.count
            storedExtra += stored.count - expected.filter { seen[$0] != nil }.count
        }

        let started = results.map(\.start).min() ?? 0
        let wall = max(tally.lastArrival, results.map(\.end).max() ?? 0) - started
        var answers = Samples()
        for result in results { answers.append(contentsOf: result.answerLatency) }
        let delivery = tally.latency
        let p95 = delivery.quantile(0.95)
        let p99 = delivery.quantile(0.99)
        return [
            ReportRow(
                benchmark: "serve chat\(backend), \(label): delivery, send → the recipient's push",
                swipe: "p50 \(duration(delivery.median)), p95 \(duration(p95)), p99 \(duration(p99))",
                target: "p95 ≤ 50 ms, p99 ≤ 100 ms", met: delivery.count > 0 && p95 <= 0.050 && p99 <= 0.100),
            ReportRow(
                benchmark: "serve chat\(backend), \(label): the sender's `say` answered",
                swipe: "p50 \(duration(answers.median)), p95 \(duration(answers.quantile(0.95))), "
                    + "p99 \(duration(answers.quantile(0.99)))"),
            ReportRow(
                benchmark: "serve chat\(backend), \(label): throughput, errors",
                swipe: "\(format(Double(delivery.count) / wall, digits: 0)) messages/s delivered over "
                    + "\(format(wall, digits: 2)) s; \(errors) errors", target: "no errors", met: errors == 0),
            ReportRow(
                benchmark: "serve chat\(backend): acknowledged messages delivered and stored exactly once",
                swipe: "\(arrivedOnce) of \(acknowledged.count) delivered once (\(lost) lost, \(doubled) doubled, "
                    + "\(unacknowledged) unacknowledged); \(storedOnce) stored once, \(storedExtra) extra rows",
                target: "all, 0 lost, 0 doubled",
                met: !acknowledged.isEmpty && arrivedOnce == acknowledged.count && unacknowledged == 0
                    && storedOnce == acknowledged.count && storedExtra == 0),
        ]
    }

    /// One socket: waits for every socket to be open, then sends its
    /// messages, paced, each answer awaited, while a reader takes the
    /// pushes as they come (timed as read); closes once its partner's
    /// messages have all arrived, or a few seconds after its own are sent.
    private static func runSocket(
        port: Int, token: String, index: Int, partner: String, prefix: String, messages: Int, pacing: Duration,
        delay: Duration, opened: Counter, ledger: ChatLedger
    ) async throws -> ChatSocketResult {
        let box = ChatResultBox()
        try await Task.sleep(for: ServeBench.connectSpacing * index)
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/ws?token=\(token)",
            configuration: .init(maxFrameSize: 1 << 20),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        ) { inbound, outbound, _ in
            let (answers, answered) = AsyncStream<String>.makeStream()
            let received = ArrivalCount()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Every frame is read the moment it arrives: answers go to
                    // the sender's loop, message pushes are timed here.
                    var hello = false
                    for try await frame in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = frame else { continue }
                        if text.hasPrefix("{\"event\":\"message\"") {
                            // The sender's own echo (their other pages hear it) is not a delivery.
                            if !text.contains("\"mine\":true"), ledger.arrived(text, at: Clock.now()) {
                                received.value.add(1, ordering: .relaxed)
                            }
                        } else if text.hasPrefix("{\"event\"") {
                            if !hello {
                                hello = true
                                answered.yield("hello")
                            }
                        } else {
                            answered.yield(text)
                        }
                    }
                    answered.finish()
                }
                var replies = answers.makeAsyncIterator()
                guard await replies.next() == "hello" else { throw BenchError("no hello from swipe serve") }
                opened.increment()
                try await opened.waitForRelease()
                if delay != .zero { try await Task.sleep(for: delay) }
                var result = ChatSocketResult(index: index)
                result.start = Clock.now()
                for n in 0..<messages {
                    try await Task.sleep(for: pacing)
                    let id = prefix + String(n)
                    let began = Clock.now()
                    ledger.sending(id, at: began)
                    try await outbound.writeTextMessage("say --id \(id) \(partner) \(ChatLedger.text(for: id))")
                    guard let answer = await replies.next() else { throw BenchError("the socket closed mid-run") }
                    result.answerLatency.append(Clock.now() - began)
                    if answer.hasPrefix("{\"ok\":true") {
                        result.acknowledged.append(id)
                    } else {
                        result.errors += 1
                    }
                }
                result.end = Clock.now()
                // The partner's messages still on their way: wait for them (a
                // lost one shows as missing after the grace period).
                let deadline = Clock.now() + 10
                while received.value.load(ordering: .relaxed) < messages, Clock.now() < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                box.value = result
                try await outbound.close(.normalClosure, reason: nil)
                try await group.waitForAll()
            }
        }
        guard let value = box.value else { throw BenchError("a chat socket closed before its script ended") }
        return value
    }
}

struct ChatSocketResult: Sendable {
    var index: Int
    var acknowledged: [String] = []
    var answerLatency = Samples()
    var errors = 0
    var start = 0.0
    var end = 0.0
}

/// Pushes a socket has read from its partner.
final class ArrivalCount: Sendable {
    let value = Atomic<Int>(0)
}

final class ChatResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ChatSocketResult?
    var value: ChatSocketResult? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// When each message was sent and each push arrived, by the message's client id.
final class ChatLedger: Sendable {
    struct Tally {
        var arrivals: [String: Int] = [:]
        var latency = Samples()
        var lastArrival = 0.0
    }

    private struct State {
        var sentAt: [String: Double] = [:]
        var tally = Tally()
    }

    private let state = Mutex(State())

    /// The text a message carries: its client id, found again in the push.
    static func text(for id: String) -> String { "bench message " + id }

    func sending(_ id: String, at moment: Double) {
        state.withLock { $0.sentAt[id] = moment }
    }

    /// Notes a `{"event":"message"}` push read at `moment`; whether it was one of this run's.
    func arrived(_ push: String, at moment: Double) -> Bool {
        guard let id = Self.id(in: push) else { return false }
        return state.withLock { state in
            state.tally.arrivals[id, default: 0] += 1
            state.tally.lastArrival = max(state.tally.lastArrival, moment)
            if state.tally.arrivals[id] == 1, let sent = state.sentAt[id] {
                state.tally.latency.append(moment - sent)
            }
            return true
        }
    }

    func tally() -> Tally { state.withLock { $0.tally } }

    /// The client id in a push's `"text":"bench message ID"`.
    static func id(in push: String) -> String? {
        guard let start = push.range(of: "\"text\":\"bench message ") else { return nil }
        let rest = push[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
