import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// Conversations over the socket (Documentation/REPL.md, "Conversations"): `say` and `chat` answer as
/// in the REPL's JSON mode, and the recipient's open socket gets
/// `{"event":"message",…}` with the sender, the text and its place in the
/// conversation.
struct SocketMessageTests {
    let fixture: ServerFixture

    /// alice and bob match.
    init() throws {
        fixture = try ServerFixture()
        let store = try SQLiteStore(path: fixture.path, create: false)
        // A burst of messages to one person: the rule messages-per-minute is ModerationTests'.
        try store.setRule("messages-per-minute", "1000000")
        _ = try store.record(viewer: "alice", profile: "bob", decision: .like, via: .drag)
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .drag)
    }

    /// Opens bob's socket and, once it is listening (its `inbox` answered),
    /// runs `alice`; answers every frame bob heard after that, up to the
    /// first of which `last` is true.
    static func whileBobListens(
        _ client: any TestClientProtocol, as token: String,
        until last: @escaping @Sendable ([String: Any]) -> Bool, _ alice: () async throws -> Void
    ) async throws -> [[String: Any]] {
        let heard = Box<[[String: Any]]>()
        let bobReady = AsyncStream<Void>.makeStream()
        async let bob: Void = {
            defer { bobReady.continuation.finish() }
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()  // hello
                try await outbound.writeTextMessage("inbox")
                _ = try await messages.next()
                bobReady.continuation.yield()
                var frames: [[String: Any]] = []
                while case .text(let text) = try await messages.next() {
                    frames.append(try ServerSocketTests.object(text))
                    if last(frames.last!) { break }
                }
                heard.value = frames
                try await outbound.close(.normalClosure, reason: nil)
            }
        }()
        for await _ in bobReady.stream { break }
        try await alice()
        try await bob
        return heard.value ?? []
    }

    /// A frame may be a command object (issue 37): any text, newlines
    /// included, answered with `cmd` and the echoed `tag`; the hello says
    /// the protocol's version.
    @Test func aCommandObjectFrameSendsAnyTextAndEchoesItsTag() async throws {
        let token = try fixture.token(for: "alice")
        let result = Box<(hello: [String: Any], answers: [[String: Any]])>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) { inbound, outbound, _ in
                result.value = try await ServerSocketTests.exchange(
                    [#"{"cmd":"say","to":"bob","text":"two\nlines \"quoted\"","client_id":"k1","tag":"t1"}"#],
                    inbound: inbound, outbound: outbound)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let value = try #require(result.value)
        #expect(value.hello["v"] as? Int == 1)
        #expect(value.hello["name"] as? String == "Name alice")
        #expect(value.answers.first?["ok"] as? Bool == true, "\(value.answers)")
        #expect(value.answers.first?["cmd"] as? String == "say" && value.answers.first?["tag"] as? String == "t1")
        let stored = try SQLiteStore(path: fixture.path, create: false).messages(
            MessageQuery(viewer: "alice", profile: "bob", last: nil))
        #expect(stored.map(\.text) == ["two\nlines \"quoted\""] && stored.first?.clientID == "k1")
    }

    /// A list names people with their faces (issue 37: the inbox showed
    /// initials for people who have photos): the `inbox` answer carries
    /// bob's profile, his photo's path with alice's grant, which loads.
    @Test func theInboxCarriesItsPeoplesFacesAndTheirPhotosLoad() async throws {
        let store = try SQLiteStore(path: fixture.path, create: false)
        let path = try store.addPhoto(viewer: "bob", .bytes(try PhotoBytes(checking: TestImages.png())), at: nil)
            .photos[0]
        let token = try fixture.token(for: "alice")
        let answers = Box<[[String: Any]]>()
        let photoStatus = Box<Int>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) { inbound, outbound, _ in
                answers.value = try await ServerSocketTests.exchange(
                    ["inbox", "inbox"], inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
            let profiles = answers.value?.first?["profiles"] as? [[String: Any]] ?? []
            let photos = profiles.first { $0["id"] as? String == "bob" }?["photos"] as? [String] ?? []
            guard let granted = photos.first else { return }
            photoStatus.value = try await client.execute(
                uri: granted, method: .get, headers: [.cookie: "swipe_token=" + token]
            ) { Int($0.status.code) }
        }
        let profiles = try #require(answers.value?.first?["profiles"] as? [[String: Any]])
        let bob = try #require(profiles.first { $0["id"] as? String == "bob" })
        let photos = try #require(bob["photos"] as? [String])
        #expect(photos.count == 1 && photos[0].hasPrefix(path + "?for="), "\(photos)")
        #expect(bob["lat"] == nil && bob["seeking"] == nil, "a peer's profile, never their place or preferences")
        #expect(photoStatus.value == 200)
        #expect(answers.value?.last?["profiles"] == nil, "sent once per socket")
    }

    /// Text survives the socket byte for byte (issue 37): each of the
    /// twelve hostile texts, sent as the page sends a message, is stored
    /// exactly, ends trimmed.
    @Test func hostileTextsSurviveTheSocketByteForByte() async throws {
        let token = try fixture.token(for: "alice")
        let answers = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) { inbound, outbound, _ in
                answers.value = try await ServerSocketTests.exchange(
                    HostileTexts.all.enumerated().map { "say --id h\($0.offset) bob  \($0.element)  " },
                    inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(answers.value?.allSatisfy { $0["ok"] as? Bool == true } == true, "\(answers.value ?? [])")
        let stored = try SQLiteStore(path: fixture.path, create: false).messages(
            MessageQuery(viewer: "alice", profile: "bob", last: nil))
        #expect(stored.map(\.text) == HostileTexts.all)
    }

    @Test func aMessageReachesTheRecipientsSocket() async throws {
        let aliceToken = try fixture.token(for: "alice")
        let bobToken = try fixture.token(for: "bob")
        let aliceAnswers = Box<[[String: Any]]>()
        let bobHeard = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            bobHeard.value = try await Self.whileBobListens(
                client, as: bobToken, until: { $0["event"] as? String == "message" }
            ) {
                try await client.ws("/ws?token=" + aliceToken, configuration: ServerSocketTests.client) {
                    inbound, outbound, _ in
                    aliceAnswers.value = try await ServerSocketTests.exchange(
                        ["say --id a1 bob hello \u{1B}[31mbob", "chat bob", "/back", "inbox"],
                        inbound: inbound, outbound: outbound
                    ).answers
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
        }
        let answers = try #require(aliceAnswers.value)
        #expect(answers.count == 4)
        #expect((answers[0]["message"] as? [String: Any])?["seq"] as? Int == 1)
        #expect(answers[0]["retry"] as? Bool == false)
        #expect(((answers[1]["messages"] as? [[String: Any]]) ?? []).map { $0["sender"] as? String } == ["alice"])
        #expect(answers[2]["left_chat"] as? String == "bob")
        #expect(((answers[3]["inbox"] as? [[String: Any]]) ?? []).first?["profile"] as? String == "bob")
        let event = try #require(bobHeard.value?.last)
        #expect(event["profile"] as? String == "alice")
        #expect(event["name"] as? String == "Name alice")
        #expect(event["seq"] as? Int == 1)
        #expect(event["text"] as? String == "hello \u{1B}[31mbob", "data, as stored: the page sets it as text")
        #expect(event["client_id"] == nil, "the sender's client id is not told")
        #expect(try SQLiteStore(path: fixture.path, create: false).inbox(viewer: "bob").first?.unread == 1)
    }

    /// A message sent from one of the sender's tabs reaches their other
    /// tab as `mine`, and not the tab that sent it: its answer carries the
    /// message already (one push fewer per message in `make bench-serve`'s chat).
    @Test func theSendingTabIsNotToldTwice() async throws {
        let aliceToken = try fixture.token(for: "alice")
        let frames = Box<[[String: Any]]>()
        let otherTab = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            otherTab.value = try await Self.whileBobListens(
                client, as: aliceToken, until: { $0["event"] as? String == "message" }
            ) {
                try await client.ws("/ws?token=" + aliceToken, configuration: ServerSocketTests.client) {
                    inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    _ = try await messages.next()  // hello
                    var seen: [[String: Any]] = []
                    for line in [#"{"cmd":"say","to":"bob","text":"from tab one","client_id":"tab-1"}"#, "inbox"] {
                        try await outbound.writeTextMessage(line)
                        while case .text(let text) = try await messages.next() {
                            seen.append(try ServerSocketTests.object(text))
                            if seen.last?["event"] == nil { break }
                        }
                    }
                    frames.value = seen
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
        }
        let seen = try #require(frames.value)
        #expect(seen.filter { $0["event"] != nil }.isEmpty, "the sending tab hears no push of its own message: \(seen)")
        #expect((seen.first?["message"] as? [String: Any])?["text"] as? String == "from tab one")
        let event = try #require(otherTab.value?.last)
        #expect(event["mine"] as? Bool == true && event["client_id"] as? String == "tab-1", "\(event)")
    }

    /// The sender's own open page hears a message they sent elsewhere
    /// (`swipe send`, a REPL, another tab): the conversation as their inbox
    /// names it, `mine`, and their own client id; the recipient's event is
    /// unchanged and still never carries it.
    @Test func theSendersOwnPageHearsWhatTheySentElsewhere() async throws {
        let aliceToken = try fixture.token(for: "alice")
        let path = fixture.path
        let heard = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            heard.value = try await Self.whileBobListens(
                client, as: aliceToken, until: { $0["event"] as? String == "message" }
            ) {
                // Another process: the store directly, as `swipe send --as alice bob …` writes.
                _ = try SQLiteStore(path: path, create: false).send(
                    MessageSend(viewer: "alice", profile: "bob", text: "sent from my phone", clientID: "phone-1"))
            }
        }
        let event = try #require(heard.value?.last)
        #expect(event["mine"] as? Bool == true, "\(event)")
        #expect(event["profile"] as? String == "bob", "the conversation, as alice's inbox names it")
        #expect(event["text"] as? String == "sent from my phone")
        #expect(event["seq"] as? Int == 1)
        #expect(event["client_id"] as? String == "phone-1")
        let notice = MessageNotice(
            message: Message(
                seq: 1, sender: "alice", recipient: "bob", text: "x", clientID: "phone-1",
                sentAt: "2026-11-28T00:00:00Z"),
            senderName: "Name alice")
        #expect(!notice.json.contains("phone-1") && !notice.json.contains("mine"), "the recipient is told neither")
    }

    /// `/report REASON` typed in a chat over the socket (issue 21): it answers
    /// as in the REPL's JSON mode (`left_chat`), stores the report with the
    /// conversation, ends the match so bob's open page hears its deck changed,
    /// and `/metrics` counts the chat's lines under fixed words, never their text.
    @Test func slashReportInAChatOverTheSocket() async throws {
        let aliceToken = try fixture.token(for: "alice")
        let bobToken = try fixture.token(for: "bob")
        let bobHeard = Box<[[String: Any]]>()
        let aliceAnswers = Box<[[String: Any]]>()
        let scraped = Box<[String: Double]>()
        try await fixture.withServer { client in
            bobHeard.value = try await Self.whileBobListens(
                client, as: bobToken, until: { $0["event"] as? String == "deck-changed" }
            ) {
                try await client.ws("/ws?token=" + aliceToken, configuration: ServerSocketTests.client) {
                    inbound, outbound, _ in
                    aliceAnswers.value = try await ServerSocketTests.exchange(
                        ["chat bob", "see you soon, bob", "report him", "/report rude after that", "inbox"],
                        inbound: inbound, outbound: outbound
                    ).answers
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
            scraped.value = try await MetricsTests.scrape(client).samples
        }
        let answers = try #require(aliceAnswers.value)
        try #require(answers.count == 5)
        #expect((answers[1]["message"] as? [String: Any])?["text"] as? String == "see you soon, bob")
        #expect(answers[2]["ok"] as? Bool == false, "a line beginning with report is not sent")
        #expect((answers[2]["error"] as? String)?.contains("/report REASON") == true)
        #expect(answers[3]["ok"] as? Bool == true)
        #expect(answers[3]["left_chat"] as? String == "bob")
        #expect((answers[3]["notice"] as? String)?.contains("your match ended") == true)
        #expect(((answers[4]["inbox"] as? [[String: Any]]) ?? []).isEmpty, "the conversation ended")
        #expect(bobHeard.value?.map { $0["event"] as? String ?? "answer" } == ["message", "deck-changed"])
        let store = try SQLiteStore(path: fixture.path, create: false)
        let report = try #require(try store.reports().first)
        #expect([report.reporter, report.reported, report.reason] == ["alice", "bob", "rude after that"])
        #expect(try store.transcript(of: report, limit: Report.transcriptLength).map(\.text) == ["see you soon, bob"])
        let samples = try #require(scraped.value)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="chat-message"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="refused",verb="chat-refused"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="/report"}"#] == 1)
        #expect(samples[#"swipe_store_seconds_count{verb="chat-message"}"#] == 1, "a chat line runs on the thread pool")
    }
}
