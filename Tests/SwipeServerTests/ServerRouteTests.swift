import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwipeTestSupport
import Testing

@testable import SwipeServer

#if canImport(Glibc)
    import Glibc
#endif

/// Routes: the page and its files only with a valid token; 401 otherwise.
struct ServerRouteTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func withoutATokenEveryPathAnswers401WithHowToSignIn() async throws {
        try await fixture.withServer { client in
            for path in ["/", "/app.js", "/app.css", "/photos.js", "/photos.css", "/ws", "/nothing/here", "/?token="] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(String(buffer: response.body).contains("swipe link"), "\(path)")
                }
            }
        }
    }

    @Test func expiredForgedAndOtherDatabasesTokensAre401() async throws {
        let other = try ServerFixture()
        let expired = try fixture.token(for: "alice", expiry: Date().addingTimeInterval(-1))
        let foreign = try other.token(for: "alice")
        var parts = try fixture.token(for: "alice").split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array("bob".utf8))
        let forged = parts.joined(separator: ".")
        let unknownViewer = try fixture.token(for: "nobody")
        try await fixture.withServer { client in
            for token in [expired, foreign, forged, unknownViewer, "garbage"] {
                try await client.execute(uri: "/?token=" + token, method: .get) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.setCookie] == nil)
                }
            }
        }
    }

    /// The security headers come from one middleware: every answer of the
    /// router carries them, a refusal, a 404, a health check, a photo and
    /// a sign-out included; a handler's own Cache-Control (a photo's) stays.
    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            for (path, method) in [
                ("/", HTTPRequest.Method.get), ("/?token=" + token, .get), ("/app.js?token=" + token, .get),
                ("/no-such-page", .get), ("/healthz", .get), ("/photos/p-1", .get), ("/me/export", .get),
                ("/ws", .get), ("/logout", .post), ("/photos", .post),
            ] {
                try await client.execute(uri: path, method: method) { response in
                    #expect(response.headers[.contentSecurityPolicy] == SwipeServer.contentSecurityPolicy, "\(path)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(path)")
                    #expect(response.headers[.cacheControl] != nil, "\(path)")
                }
            }
        }
    }

    @Test func aValidTokenGetsThePageWithItsPolicyAndACookie() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            let cookie = try await client.execute(uri: "/?token=" + token, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'"))
                #expect(policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                let body = String(buffer: response.body)
                #expect(body.contains("<script src=\"/app.js\""))
                #expect(!body.contains("<script>"), "no inline script: the policy forbids it")
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("HttpOnly"))
                #expect(setCookie.contains("SameSite=Strict"))
                return String(setCookie.split(separator: ";")[0])
            }
            #expect(cookie == "swipe_token=" + token)
            // The cookie alone opens the page and its files.
            for (path, type) in [
                ("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css"),
                ("/photos.js", "text/javascript"), ("/photos.css", "text/css"),
            ] {
                try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                    #expect(response.body.readableBytes > 100, "\(path)")
                }
            }
            try await client.execute(uri: "/missing", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/ws", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .upgradeRequired)
            }
        }
    }

    @Test func thePageWritesProfileTextAsTextNeverAsHTML() throws {
        let script = String(decoding: PageAssets.script, as: UTF8.self)
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!script.contains(sink), "\(sink)")
        }
        #expect(script.contains("textContent"))
    }

    /// A refused upgrade is answered before any socket opens, with the same
    /// statuses as the page: 401 and how to get a link without a valid
    /// token, 403 from another site; the log says why, never the token.
    @Test func aSocketUpgradeWithoutAValidTokenIs401AndFromAnotherSite403() async throws {
        let token = try fixture.token(for: "alice")
        let expired = try fixture.token(for: "alice", expiry: Date().addingTimeInterval(-1))
        try await fixture.withServer { client in
            let port = try #require(client.port)
            func upgrade(_ path: String, origin: String? = nil, cookie: String? = nil) throws -> RawHTTP.Response {
                var request =
                    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                if let origin { request += "Origin: \(origin)\r\n" }
                if let cookie { request += "Cookie: swipe_token=\(cookie)\r\n" }
                return try RawHTTP.exchange(port: port, request: request + "\r\n")
            }
            for refused in [
                try upgrade("/ws"), try upgrade("/ws?token=nope"), try upgrade("/ws?token=" + expired),
                try upgrade("/ws", cookie: "nope"),
            ] {
                #expect(refused.statusLine == "HTTP/1.1 401 Unauthorized")
                #expect(refused.body.contains("swipe link"))
                #expect(refused.headers.lowercased().contains("content-security-policy: default-src 'none'"))
            }
            let crossSite = try upgrade("/ws?token=" + token, origin: "http://evil.example")
            #expect(crossSite.statusLine == "HTTP/1.1 403 Forbidden")
            #expect(crossSite.body.contains("own host"))
            // Another site is refused even without a token: the origin is checked first.
            #expect(try upgrade("/ws", origin: "http://evil.example").statusLine == "HTTP/1.1 403 Forbidden")
            #expect(try upgrade("/ws?token=" + token, origin: "http://127.0.0.1:\(port)").statusLine.contains(" 101 "))
            #expect(try upgrade("/ws", cookie: token).statusLine.contains(" 101 "))
        }
        let log = fixture.logs.all.joined(separator: "\n")
        #expect(log.contains("refused websocket: no sign-in token"))
        #expect(log.contains("refused websocket: the sign-in token is not one this server made"))
        #expect(log.contains("refused websocket: cross-origin"))
        #expect(!log.contains(token))
    }
}

/// One request over a plain TCP socket, to see exactly what the server answers
/// an upgrade (an HTTP client library would handle the upgrade itself).
enum RawHTTP {
    struct Response {
        var statusLine: String
        /// The header lines, CRLF-separated, without the status line.
        var headers: String
        var body: String
    }

    /// Sends `request` and reads until the server closes the connection, or
    /// until a 101's head (a WebSocket stays open).
    static func exchange(port: Int, request: String) throws -> Response {
        let connection = try RawConnection(port: port, timeout: 30)
        try connection.send(request)
        var received: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        func headEnd() -> Int? {
            guard received.count >= 4 else { return nil }
            return (0...(received.count - 4)).first { Array(received[$0..<$0 + 4]) == separator }
        }
        while true {
            if let end = headEnd(), String(decoding: received[..<end], as: UTF8.self).contains(" 101 ") { break }
            guard case .bytes(let bytes) = connection.read() else { break }
            received += bytes
        }
        let text = String(decoding: received, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? text
        let body = text.count > head.count + 4 ? String(text.dropFirst(head.count + 4)) : ""
        let lines = head.components(separatedBy: "\r\n")
        return Response(statusLine: lines.first ?? "", headers: lines.dropFirst().joined(separator: "\r\n"), body: body)
    }
}
