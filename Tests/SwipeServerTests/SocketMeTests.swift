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

/// A person's own data over the socket (Documentation/PersonalData.md): `me`
/// answers the viewer's own profile in full, `me set` reaches their other
/// pages as `me-changed`, and `me erase` ends their matches' conversations
/// with `{"event":"unmatched",…}` and closes their own sockets.
struct SocketMeTests {
    let fixture: ServerFixture
    static let client = ServerSocketTests.client

    init() throws {
        fixture = try ServerFixture()
        try fixture.matchAliceAndBob()
    }

    @Test(.timeLimit(.minutes(1))) func meShowsOwnDataAndAChangeReachesTheViewersOtherPages() async throws {
        let token = try fixture.token(for: "alice")
        let answers = Box<[[String: Any]]>(), pushed = Box<[String: Any]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { otherIn, otherOut, _ in
                var other = otherIn.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await other.next()  // hello
                try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                    answers.value = try await ServerSocketTests.exchange(
                        ["me", "me set city Porto", "me set age 17"], inbound: inbound, outbound: outbound
                    ).answers
                    try await outbound.close(.normalClosure, reason: nil)
                }
                guard case .text(let text) = try await other.next() else { throw CancellationError() }
                pushed.value = try ServerSocketTests.object(text)
                try await otherOut.close(.normalClosure, reason: nil)
            }
        }
        let all = try #require(answers.value)
        try #require(all.count == 3)
        let me = try #require(all[0]["me"] as? [String: Any])
        #expect(me["id"] as? String == "alice" && me["lat"] as? Double == 38.7223, "one's own place is one's own")
        #expect((all[1]["me"] as? [String: Any])?["city"] as? String == "Porto")
        #expect(all[1]["notice"] as? String == "city saved")
        #expect(all[2]["ok"] as? Bool == false)
        #expect(all[2]["error"] as? String == "me set age: age must be a whole number from 18 to 120, not \"17\"")
        #expect(pushed.value?["event"] as? String == "me-changed")
        #expect(try SQLiteStore(path: fixture.path, create: false).profile(id: "alice")?.city == "Porto")
    }

    @Test func aPlaceSetThroughMeIsRationedAsPrefsLocationIs() async throws {
        let token = try fixture.token(for: "alice")
        let steps = (1...7).map { String(format: "me set place %.4f,-9.1393", 38.7223 + Double($0) * 0.0009) }
        let answers = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                answers.value = try await ServerSocketTests.exchange(steps, inbound: inbound, outbound: outbound)
                    .answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let all = try #require(answers.value)
        #expect(all.map { $0["ok"] as? Bool } == Array(repeating: true, count: 6) + [false])
        #expect(all.last?["error"] as? String == SocketSession.tooManyChanges)
    }

    @Test(.timeLimit(.minutes(1))) func eraseTellsTheMatchesOpenPagesAndClosesTheViewersSockets() async throws {
        let alice = try fixture.token(for: "alice"), bob = try fixture.token(for: "bob")
        let erased = Box<[String: Any]>(), events = Box<[[String: Any]]>(), closed = Box<Bool>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + bob, configuration: Self.client) { bobIn, bobOut, _ in
                var bobMessages = bobIn.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await bobMessages.next()  // hello
                try await client.ws("/ws?token=" + alice, configuration: Self.client) { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    _ = try await messages.next()  // hello
                    try await outbound.writeTextMessage("me erase bob")
                    #expect(try await SocketPrivacyTests.answer(&messages).answer["ok"] as? Bool == false)
                    try await outbound.writeTextMessage("me erase alice")
                    erased.value = try await SocketPrivacyTests.answer(&messages).answer
                    // The server closes alice's socket after its answer.
                    closed.value = try await messages.next() == nil
                }
                var seen: [[String: Any]] = []
                while case .text(let text) = try await bobMessages.next() {
                    let object = try ServerSocketTests.object(text)
                    seen.append(object)
                    if object["event"] as? String == "unmatched" { break }
                }
                events.value = seen
                try await bobOut.close(.normalClosure, reason: nil)
            }
        }
        let answer = try #require(erased.value)
        #expect(answer["ok"] as? Bool == true)
        let summary = try #require(answer["erased"] as? [String: Any])
        #expect(summary["viewer"] as? String == "alice" && summary["unmatched"] as? [String] == ["bob"])
        #expect(answer["tombstone"] == nil && !"\(answer)".contains("erased-"), "reports are for moderators")
        #expect(closed.value == true)
        let unmatched = try #require(events.value?.last)
        #expect(unmatched["event"] as? String == "unmatched" && unmatched["profile"] as? String == "alice")
        let store = try SQLiteStore(path: fixture.path, create: false)
        #expect(try store.profile(id: "alice") == nil)
        #expect(try store.matches(viewer: "bob").isEmpty)
    }
}

/// `me photo` over the socket (Documentation/Photos.md): a URL and the
/// positions work as in the REPL; a file path is refused, never read on the
/// server.
struct SocketPhotoTests {
    let fixture: ServerFixture
    static let client = ServerSocketTests.client

    init() throws { fixture = try ServerFixture() }

    @Test(.timeLimit(.minutes(1))) func aPageMayNotNameAFileOnTheServer() async throws {
        let token = try fixture.token(for: "alice")
        let secret = fixture.folder.file("secret.png", TestImages.png())
        let answers = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                answers.value = try await ServerSocketTests.exchange(
                    ["me photo add " + secret, "me photo add https://example.org/a.jpg", "me photo remove 1"],
                    inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let all = try #require(answers.value)
        try #require(all.count == 3)
        #expect(all[0]["ok"] as? Bool == false)
        #expect((all[0]["error"] as? String)?.contains("a file path is read only by the REPL and swipe me") == true)
        #expect(((all[1]["me"] as? [String: Any])?["photos"] as? [String]) == ["https://example.org/a.jpg"])
        #expect(all[2]["notice"] as? String == "photo 1 removed")
        #expect(try SQLiteStore(path: fixture.path, create: false).profile(id: "alice")?.photos == [])
    }
}
