import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeSQLite
import SwipeStore
import Testing
import WSClient

@testable import SwipeServer

/// Sign-ins end when they should (README, "Access"): a revoked viewer, a new
/// secret, an expiry reached while a socket is open; each closes the socket
/// with 4001 "signed out" and refuses the next request.
struct SignInRevocationTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    var quickChecks: ServeConfiguration {
        var configuration = ServeConfiguration.testing()
        configuration.signInCheckInterval = .milliseconds(100)
        return configuration
    }

    /// Opens a socket as `token`, waits for its hello, runs `meanwhile`, and
    /// returns the close frame the server sent (nil if the client closed).
    func closeAfter(
        _ token: String, client: any TestClientProtocol,
        _ meanwhile: @escaping @Sendable () async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        try await client.ws("/ws?token=" + token) { inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            try await meanwhile()
            // The server closes the socket; the loop ends then (the test's
            // time limit bounds it otherwise).
            while try await messages.next() != nil {}
        }
    }

    @Test func revokingAViewerClosesTheirOpenSocketAndRefusesTheirLinks() async throws {
        let token = try fixture.token(for: "alice")
        let other = try fixture.token(for: "bob")
        let path = fixture.path
        try await fixture.withServer(quickChecks) { client in
            let close = try await closeAfter(token, client: client) {
                try SQLiteStore(path: path, create: false).revokeSignIns(viewer: "alice")
            }
            #expect(close?.closeCode == .unknown(4001))
            #expect(close?.reason == "signed out")
            try await client.execute(uri: "/?token=" + token, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            // bob was not revoked.
            try await client.execute(uri: "/?token=" + other, method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aNewSecretSignsEveryoneOutWithoutARestart() async throws {
        let token = try fixture.token(for: "alice")
        let path = fixture.path
        try await fixture.withServer(quickChecks) { client in
            let close = try await closeAfter(token, client: client) {
                try SQLiteStore(path: path, create: false).revokeSignIns(viewer: nil)
            }
            #expect(close?.closeCode == .unknown(4001))
            try await client.execute(uri: "/?token=" + token, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
        // A link made with the new secret works.
        let fresh = try fixture.token(for: "alice")
        try await fixture.withServer(quickChecks) { client in
            try await client.execute(uri: "/?token=" + fresh, method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func anExpiringTokenClosesItsOpenSocket() async throws {
        let fixture = fixture
        try await fixture.withServer(quickChecks) { client in
            // The token must still sign in when the socket opens and expire
            // while it is open. Made once the server runs; on a busy machine
            // the upgrade itself can take seconds, and a token that expired
            // before it proves nothing: its lifetime then doubles.
            for seconds in [4.0, 8, 16, 32] {
                // A token holds whole seconds: this is the moment it stops signing in.
                let expiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down))
                let token = try fixture.token(for: "alice", expiry: expiry)
                let close: WebSocketCloseFrame?
                do {
                    close = try await closeAfter(token, client: client) {}
                } catch {
                    if Date() >= expiry { continue }  // refused as expired: try a longer one
                    throw error
                }
                // Upgraded in time but expired before the socket's session
                // opened (a busy machine): refused as any expired link is,
                // before any hello. Try a longer one.
                if close?.closeCode == .policyViolation, close?.reason == "sign-in expired", Date() >= expiry {
                    continue
                }
                #expect(close?.closeCode == .unknown(4001))
                #expect(Date().timeIntervalSince(expiry) < 11)
                return
            }
            Issue.record("no socket opened before its token expired, even one that lived 32 s")
        }
    }

    @Test func linksMadeAfterARevocationWork() async throws {
        let before = try fixture.token(for: "alice")  // generation 0: revoked below
        let store = try SQLiteStore(path: fixture.path, create: false)
        try store.revokeSignIns(viewer: "alice")
        let secret = try #require(try store.accessSecret(create: false))
        let after = AccessTokens(secret: secret).issue(
            viewer: "alice", expiry: Date().addingTimeInterval(3600),
            generation: try store.signInGeneration(viewer: "alice"))
        try await fixture.withServer { client in
            try await client.execute(uri: "/?token=" + before, method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/?token=" + after, method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func signOutFromThePageRevokesAndClearsTheCookie() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            var headers = HTTPFields()
            headers[.cookie] = "swipe_token=" + token
            // Another site's page cannot sign a viewer out.
            var foreign = headers
            foreign[.origin] = "http://evil.test"
            try await client.execute(uri: "/logout", method: .post, headers: foreign) {
                #expect($0.status == .forbidden)
            }
            var own = headers
            own[.origin] = "http://localhost"  // the test client's requests go to `localhost`
            try await client.execute(uri: "/logout", method: .post, headers: own) { response in
                #expect(response.status == .ok)
                let cookie = response.headers[values: .setCookie].joined()
                #expect(cookie.contains("swipe_token=;") || cookie.contains("swipe_token=\"\""))
                #expect(cookie.contains("Max-Age=0"))
            }
            try await client.execute(uri: "/", method: .get, headers: headers) { #expect($0.status == .unauthorized) }
        }
    }
}
