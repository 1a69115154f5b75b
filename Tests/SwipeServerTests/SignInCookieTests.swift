import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwipeTestSupport
import Testing

@testable import SwipeServer

/// The sign-in cookie: a link never silently switches a browser to another
/// viewer (login CSRF), and behind https it is `Secure` and `__Host-`.
struct SignInCookieTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func aLinkForAnotherViewerThanTheCookiesIsRefusedSayingSo() async throws {
        let alice = try fixture.token(for: "alice")
        let bob = try fixture.token(for: "bob")
        let expired = try fixture.token(for: "alice", expiry: Date().addingTimeInterval(-10))
        try await fixture.withServer { client in
            var signedIn = HTTPFields()
            signedIn[.cookie] = "swipe_token=" + alice
            try await client.execute(uri: "/?token=" + bob, method: .get, headers: signedIn) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains("signed in as someone else"))
                #expect(response.headers[values: .setCookie].isEmpty, "the cookie was replaced")
            }
            // The same viewer's link is fine (a fresh expiry).
            try await client.execute(uri: "/?token=" + alice, method: .get, headers: signedIn) { response in
                #expect(response.status == .ok)
            }
            // A cookie that no longer signs in does not hold a link back.
            var stale = HTTPFields()
            stale[.cookie] = "swipe_token=" + expired
            try await client.execute(uri: "/?token=" + bob, method: .get, headers: stale) { response in
                #expect(response.status == .ok)
                #expect(response.headers[values: .setCookie].joined().contains("swipe_token=" + bob))
            }
        }
    }

    @Test func behindHttpsTheCookieIsSecureAndHostPrefixed() async throws {
        let alice = try fixture.token(for: "alice")
        var configuration = ServeConfiguration.testing()
        configuration.publicURL = URL(string: "https://swipe.example.org")
        try await fixture.withServer(configuration) { client in
            try await client.execute(uri: "/?token=" + alice, method: .get) { response in
                #expect(response.status == .ok)
                let cookie = response.headers[values: .setCookie].joined()
                #expect(cookie.hasPrefix("__Host-swipe_token=" + alice))
                #expect(cookie.contains("Secure"))
                #expect(cookie.contains("Path=/"))
                #expect(!cookie.contains("Domain"))
            }
            var headers = HTTPFields()
            headers[.cookie] = "__Host-swipe_token=" + alice
            try await client.execute(uri: "/", method: .get, headers: headers) { #expect($0.status == .ok) }
        }
    }

    @Test func behindAProxyThePublicOriginMayOpenSockets() async throws {
        let alice = try fixture.token(for: "alice")
        var configuration = ServeConfiguration.testing()
        configuration.publicURL = URL(string: "https://swipe.example.org")
        try await fixture.withServer(configuration) { client in
            let port = try #require(client.port)
            @Sendable func upgrade(origin: String) async throws -> String {
                let request =
                    "GET /ws?token=\(alice) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Origin: \(origin)\r\n\r\n"
                return try await offPool { try RawHTTP.exchange(port: port, request: request).statusLine }
            }
            #expect(try await upgrade(origin: "https://swipe.example.org").contains(" 101 "))
            #expect(try await upgrade(origin: "http://swipe.example.org").contains(" 403 "))
            #expect(try await upgrade(origin: "https://evil.example.org").contains(" 403 "))
        }
    }
}
