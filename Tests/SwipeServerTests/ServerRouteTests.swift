import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SwipeServer

/// Routes: the page and its files only with a valid token; 401 otherwise.
struct ServerRouteTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func withoutATokenEveryPathAnswers401WithHowToSignIn() async throws {
        try await fixture.withServer { client in
            for path in ["/", "/app.js", "/app.css", "/ws", "/nothing/here", "/?token="] {
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
            for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css")] {
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

    /// hummingbird-websocket answers every refused upgrade `400 Bad Request`
    /// with no body (it cannot be told a status): no socket opens, and the
    /// log says why. A plain `GET /ws` gets the 401 with its hint.
    @Test func aSocketUpgradeWithoutAValidTokenOrFromAnotherSiteIsRefused() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            let port = try #require(client.port)
            func upgrade(_ path: String, origin: String? = nil) throws -> String {
                var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                if let origin { request += "Origin: \(origin)\r\n" }
                return try RawHTTP.statusLine(port: port, request: request + "\r\n")
            }
            #expect(try upgrade("/ws") == "HTTP/1.1 400 Bad Request")
            #expect(try upgrade("/ws?token=nope") == "HTTP/1.1 400 Bad Request")
            #expect(try upgrade("/ws?token=" + token, origin: "http://evil.example") == "HTTP/1.1 400 Bad Request")
            #expect(try upgrade("/ws?token=" + token, origin: "http://127.0.0.1:\(port)").contains(" 101 "))
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
    struct Failed: Error { var what: String }

    static func statusLine(port: Int, request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed(what: "socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failed(what: "connect") }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw Failed(what: "send") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(0x0A) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    }
}
