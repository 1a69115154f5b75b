import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeSQLite
import SwipeStore
import Synchronization
import Testing
import WSClient

@testable import SwipeServer

/// A suspension on `swipe serve` (Documentation/Moderation.md): the
/// suspended person's open sockets are told why (`{"event":"suspended"}`,
/// the whole reason) and close with 4003; their links made before are void
/// (401) and one made after answers 403 with the reason. A moderator's ban
/// sent on their own socket closes the other person's at once, without
/// waiting for the periodic check; someone without the role is refused.
struct SuspensionSocketTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    /// The periodic sign-in check out of the way: a close must come from the ban itself.
    var noPeriodicCheck: ServeConfiguration {
        var configuration = ServeConfiguration.testing()
        configuration.signInCheckInterval = .seconds(3600)
        return configuration
    }

    /// Opens a socket as `token`, waits for its hello, runs `meanwhile`,
    /// and returns the text frames after the hello and the close frame.
    func framesAfter(
        _ token: String, client: any TestClientProtocol,
        _ meanwhile: @escaping @Sendable () async throws -> Void
    ) async throws -> (frames: [String], close: WebSocketCloseFrame?) {
        let frames = FrameLog()
        let close = try await client.ws("/ws?token=" + token) { inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            try await meanwhile()
            while let message = try await messages.next() {
                if case .text(let text) = message { frames.append(text) }
            }
        }
        return (frames.all, close)
    }

    @Test func aModeratorsBanOnTheirSocketClosesTheOthersAtOnceWith4003() async throws {
        let store = try SQLiteStore(path: fixture.path, create: false)
        try store.grantModerator("alice", by: nil, at: nil)
        let bob = try fixture.token(for: "bob")
        let alice = try fixture.token(for: "alice")
        let reason = "Spam links in every message " + String(repeating: "and more ", count: 20) + "again"
        let path = fixture.path
        try await fixture.withServer(noPeriodicCheck) { client in
            let seen = try await framesAfter(bob, client: client) {
                _ = try await client.ws("/ws?token=" + alice) { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    _ = try await messages.next()  // hello
                    let ban = JSONValueText.object(["cmd": "moderate", "action": "ban", "id": "bob", "reason": reason])
                    try await outbound.write(.text(ban))
                    guard case .text(let answer)? = try await messages.next() else {
                        Issue.record("no answer to the ban")
                        return
                    }
                    #expect(answer.contains(#""ok":true"#) && answer.contains("bob is suspended for good"), "\(answer)")
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
            #expect(seen.close?.closeCode == .unknown(4003))
            #expect(seen.close?.reason?.hasPrefix("suspended: Spam links in every message") == true)
            #expect((seen.close?.reason?.utf8.count ?? 999) <= 123, "a close frame's reason fits its 123 bytes")
            let event = try #require(seen.frames.last)
            let decoded = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
            #expect(decoded?["event"] as? String == "suspended")
            #expect(decoded?["reason"] as? String == reason, "the event holds the whole reason")
            // The link bob had is void; one made after the ban says why.
            try await client.execute(uri: "/?token=" + bob, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            let reopened = try SQLiteStore(path: path, create: false)
            let generation = try reopened.signInGeneration(viewer: "bob")
            let secret = try reopened.accessSecret(create: false)!
            let fresh = AccessTokens(secret: secret).issue(
                viewer: "bob", expiry: Date().addingTimeInterval(600), generation: generation)
            try await client.execute(uri: "/?token=" + fresh, method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("Spam links in every message"))
            }
        }
        #expect(
            try store.moderationLog().map { [$0.moderator, $0.action, $0.target] } == [
                ["operator", "grant", "alice"], ["alice", "ban", "bob"],
            ])
    }

    @Test func someoneWithoutTheRoleIsRefusedAndNothingHappens() async throws {
        let carol = try fixture.token(for: "carol")
        try await fixture.withServer(noPeriodicCheck) { client in
            _ = try await client.ws("/ws?token=" + carol) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                guard case .text(let hello)? = try await messages.next() else { return }
                #expect(hello.contains(#""moderator":false"#))
                let ban = JSONValueText.object(["cmd": "moderate", "action": "ban", "id": "bob", "reason": "x"])
                try await outbound.write(.text(ban))
                guard case .text(let answer)? = try await messages.next() else {
                    Issue.record("no answer")
                    return
                }
                #expect(answer.contains(#""ok":false"#) && answer.contains("carol is not a moderator"), "\(answer)")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(try SQLiteStore(path: fixture.path, create: false).suspension(of: "bob", at: nil) == nil)
    }

    @Test func aHelloCarriesTheRoleAndTheWarningsWaiting() async throws {
        let store = try SQLiteStore(path: fixture.path, create: false)
        try store.grantModerator("dave", by: nil, at: nil)
        try store.warn("dave", reason: "Be kind", by: nil, at: nil)
        let dave = try fixture.token(for: "dave")
        try await fixture.withServer(noPeriodicCheck) { client in
            _ = try await client.ws("/ws?token=" + dave) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                guard case .text(let hello)? = try await messages.next() else { return }
                #expect(hello.contains(#""moderator":true"#))
                #expect(hello.contains(#""warnings":[{"reason":"Be kind","warned_at":"#))
                try await outbound.write(.text(#"{"cmd":"acknowledge"}"#))
                guard case .text(let answer)? = try await messages.next() else { return }
                #expect(answer.contains("acknowledged 1 warning"))
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(try store.pendingWarnings(viewer: "dave").isEmpty)
    }
}

/// Frames a socket's handler saw, read after it returns.
final class FrameLog: Sendable {
    private let frames = Mutex<[String]>([])
    func append(_ frame: String) { frames.withLock { $0.append(frame) } }
    var all: [String] { frames.withLock { $0 } }
}

/// A flat JSON object of strings, for the frames the tests send.
enum JSONValueText {
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        let encoded = members.map { key, value in
            let data = try! JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
            let text = String(decoding: data, as: UTF8.self)
            return "\"\(key)\":" + text.dropFirst().dropLast()
        }
        return "{" + encoded.joined(separator: ",") + "}"
    }
}
