import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// `/ws`: the REPL's commands in, its JSON answers out, one frame per line.
struct ServerSocketTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    static let client = WebSocketClientConfiguration(maxFrameSize: 1 << 20)

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Sends each line and collects the answer to each (events skipped).
    static func exchange(_ lines: [String], inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter)
        async throws -> (hello: [String: Any], answers: [[String: Any]])
    {
        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        guard case .text(let hello) = try await messages.next() else { throw CancellationError() }
        var answers: [[String: Any]] = []
        for line in lines {
            try await outbound.writeTextMessage(line)
            while case .text(let text) = try await messages.next() {
                let object = try object(text)
                if object["event"] == nil { answers.append(object); break }
            }
        }
        return (try object(hello), answers)
    }

    @Test func theSocketSpeaksTheREPLsJSONAndStoresEachDecisionOnce() async throws {
        let token = try fixture.token(for: "alice")
        let result = Box<(hello: [String: Any], answers: [[String: Any]])>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                result.value = try await Self.exchange(
                    ["deck", "drag 60 -10", "release 0 0", "like", "drag abc", "undo", "hate"],
                    inbound: inbound, outbound: outbound)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let (hello, answers) = try #require(result.value)
        #expect(hello["event"] as? String == "hello")
        #expect(hello["viewer"] as? String == "alice")
        try #require(answers.count == 7)
        // deck: alice never sees herself; nobody has acted, so the ranking
        // deals them in alice's tie-hash order (README "Ranking"), each with the whole profile.
        let order = DiscoveryModel.tieOrder("alice", ["bob", "carol", "dave", "erin"])
        let deck = answers[0]
        #expect(deck["ok"] as? Bool == true)
        #expect(deck["mode"] as? String == "deck")
        let cards = try #require(deck["cards"] as? [[String: Any]])
        #expect(cards.map { $0["profile"] as? String } == order)
        let profiles = try #require(deck["profiles"] as? [[String: Any]])
        #expect(Set(profiles.compactMap { $0["id"] as? String }) == ["bob", "carol", "dave", "erin"])
        #expect(profiles.first { $0["id"] as? String == "bob" }?["name"] as? String == "Name bob")
        // drag 60 -10: the README's worked example (tantan).
        let drag = answers[1]
        let top = try #require((drag["cards"] as? [[String: Any]])?.first)
        #expect(top["x"] as? Double == 247.5)
        #expect(top["y"] as? Double == 263.5)
        #expect(top["rotation"] as? Double == -7.2)
        #expect(drag["like"] as? Double == 0.6)
        #expect(drag["progress"] as? Double == 0.45)
        #expect(drag["profiles"] == nil, "profiles are sent once per connection")
        // release under the threshold springs back: nothing decided, an animation with keyframes.
        let release = answers[2]
        #expect(release["decision"] == nil)
        let animation = try #require((release["animations"] as? [[String: Any]])?.first)
        #expect(animation["name"] as? String == "spring-back")
        let keyframes = try #require(animation["keyframes"] as? [[String: Any]])
        #expect(keyframes.count >= 2)
        #expect((keyframes.first?["cards"] as? [[String: Any]])?.first?["x"] as? Double == 247.5)
        #expect((keyframes.last?["cards"] as? [[String: Any]])?.first?["x"] as? Double == 187.5)
        // like: the top card is decided and stored, the second comes up.
        let like = answers[3]
        #expect((like["decision"] as? [String: Any])?["profile"] as? String == order[0])
        #expect((like["cards"] as? [[String: Any]])?.first?["profile"] as? String == order[1])
        // A bad line is an error answer; the socket stays open.
        #expect(answers[4]["ok"] as? Bool == false)
        #expect((answers[4]["error"] as? String)?.isEmpty == false)
        #expect(answers[5]["ok"] as? Bool == true)
        #expect((answers[6]["decision"] as? [String: Any])?["decision"] as? String == "hate")
        // The store holds exactly what was acknowledged: the top card liked then undone, then hated.
        let rows = try fixture.decisions(of: "alice")
        #expect(
            rows.sorted { "\($0)" < "\($1)" } == [
                StoredDecisionRow(profile: order[0], decision: "hate", undone: false),
                StoredDecisionRow(profile: order[0], decision: "like", undone: true),
            ])
        let lines = fixture.logs.all
        #expect(
            lines.contains {
                $0.contains("websocket closed") && $0.contains("viewer=alice") && $0.contains("commands=7")
            })
        #expect(!lines.joined(separator: "\n").contains(token))
        #expect(!lines.joined(separator: "\n").contains(String(token.split(separator: ".")[3])))
    }

    /// The page's "Likes you" list and the detail page's block button are
    /// discovery commands: over a socket they act on the store as in the REPL.
    @Test func discoveryCommandsWorkOverTheSocket() async throws {
        let token = try fixture.token(for: "alice")
        let bobToken = try fixture.token(for: "bob")
        let result = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + bobToken, configuration: Self.client) { inbound, outbound, _ in
                _ = try await Self.exchange(["like"], inbound: inbound, outbound: outbound)  // bob likes alice
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                result.value = try await Self.exchange(
                    ["likes", "block carol", "prefs"],
                    inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let answers = try #require(result.value)
        try #require(answers.count == 3)
        #expect(answers.map { $0["ok"] as? Bool } == [true, true, true], "\(answers)")
        let likes = try #require(answers[0]["likes"] as? [[String: Any]], "\(answers[0])")
        #expect(likes.compactMap { $0["profile"] as? String ?? $0["id"] as? String } == ["bob"])
        let cards = (answers[1]["cards"] as? [[String: Any]])?.compactMap { $0["profile"] as? String } ?? []
        #expect(!cards.contains("carol"))
        #expect(try SQLiteStore(path: fixture.path, create: false).blocked(viewer: "alice") == ["carol"])
    }

    @Test func aMatchReachesTheOtherViewersSocket() async throws {
        let aliceToken = try fixture.token(for: "alice")
        let bobToken = try fixture.token(for: "bob")
        let pushed = Box<[String: Any]>()
        let aliceAnswers = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            let bobReady = AsyncStream<Void>.makeStream()
            async let bob: Void = {
                defer { bobReady.continuation.finish() }
                try await client.ws("/ws?token=" + bobToken, configuration: Self.client) { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    _ = try await messages.next()  // hello
                    try await outbound.writeTextMessage("like")  // bob likes alice (his first card)
                    _ = try await messages.next()
                    bobReady.continuation.yield()
                    while case .text(let text) = try await messages.next() {
                        let object = try Self.object(text)
                        if object["event"] as? String == "match" { pushed.value = object; break }
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }()
            for await _ in bobReady.stream { break }
            try await client.ws("/ws?token=" + aliceToken, configuration: Self.client) { inbound, outbound, _ in
                aliceAnswers.value = try await Self.exchange(["like"], inbound: inbound, outbound: outbound).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await bob
        }
        let answer = try #require(aliceAnswers.value?.first)
        #expect((answer["decision"] as? [String: Any])?["profile"] as? String == "bob")
        #expect(answer["match"] as? Bool == true)
        let event = try #require(pushed.value)
        #expect(event["profile"] as? String == "alice")
        #expect(event["name"] as? String == "Name alice")
        #expect((event["matched_at"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func anUpgradeFromAnotherSiteIsRefusedAndFromThisOneAccepted() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            let port = try #require(client.port)
            let evil = WebSocketClientConfiguration(additionalHeaders: [.origin: "http://evil.example"])
            await #expect(throws: (any Error).self) {
                try await client.ws("/ws?token=" + token, configuration: evil) { _, _, _ in }
            }
            let same = WebSocketClientConfiguration(
                maxFrameSize: 1 << 20,
                additionalHeaders: [.origin: "http://localhost:\(port)"])
            let answered = Box<Bool>()
            try await client.ws("/ws?token=" + token, configuration: same) { inbound, outbound, _ in
                let (_, answers) = try await Self.exchange(["deck"], inbound: inbound, outbound: outbound)
                answered.value = answers.first?["ok"] as? Bool
                try await outbound.close(.normalClosure, reason: nil)
            }
            #expect(answered.value == true)
        }
        #expect(fixture.logs.all.contains { $0.contains("cross-origin") })
    }

    @Test func anOversizedFrameOrAFloodClosesThatSocketOnly() async throws {
        let token = try fixture.token(for: "alice")
        let bobToken = try fixture.token(for: "bob")
        let configuration = ServeConfiguration.testing(commandsPerSecond: 20, commandBurst: 40)
        let bystander = Box<[[String: Any]]>()
        try await fixture.withServer(configuration) { client in
            let big = try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                try await outbound.writeTextMessage(String(repeating: "x", count: 70 * 1024))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(big?.closeCode == .messageTooLarge)
            let flood = try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                for _ in 0..<400 { try await outbound.writeTextMessage("deck") }
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(flood?.closeCode == .policyViolation)
            #expect(flood?.reason == "too many commands")
            // Meanwhile another viewer's socket works as ever.
            try await client.ws("/ws?token=" + bobToken, configuration: Self.client) { inbound, outbound, _ in
                bystander.value = try await Self.exchange(["deck", "like"], inbound: inbound, outbound: outbound)
                    .answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(bystander.value?.map { $0["ok"] as? Bool } == [true, true])
        #expect(try fixture.decisions(of: "bob").count == 1)
    }
}

/// A value a @Sendable closure hands back to the test.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
