import SwipeServer
import Testing

/// Cross-site WebSocket hijacking: only pages from the server's own host and port.
struct OriginCheckTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", "127.0.0.1:8080"),
        ("http://LOCALHOST:9000", "localhost:9000"),
        ("http://example.com", "example.com"),
        ("http://example.com:80", "example.com"),
        ("https://example.com", "example.com:443"),
        ("http://[::1]:8080", "[::1]:8080"),
    ])
    func theSameHostAndPortMayUpgrade(origin: String, host: String) {
        #expect(OriginCheck.allows(origin: origin, host: host))
    }

    @Test(arguments: [
        ("http://evil.example", "127.0.0.1:8080"),
        ("http://127.0.0.1:8081", "127.0.0.1:8080"),
        ("http://127.0.0.1", "127.0.0.1:8080"),
        ("https://127.0.0.1:8080", "127.0.0.1"),
        ("null", "127.0.0.1:8080"),
        ("file://", "127.0.0.1:8080"),
        ("http://127.0.0.1:8080.evil.example", "127.0.0.1:8080"),
        ("http://user@127.0.0.1:8080", "127.0.0.1:8080"),
        ("http://[::1]:8081", "[::1]:8080"),
    ])
    func anotherSiteMayNot(origin: String, host: String) {
        #expect(!OriginCheck.allows(origin: origin, host: host))
    }

    @Test func aRequestWithoutOriginOrWithAWebSocketOriginIsAProgramNotAPage() {
        #expect(OriginCheck.allows(origin: nil, host: "127.0.0.1:8080"))
        #expect(OriginCheck.allows(origin: "ws://localhost", host: "localhost:8080"))
        #expect(OriginCheck.allows(origin: "wss://anything", host: "localhost:8080"))
        #expect(!OriginCheck.allows(origin: "http://127.0.0.1:8080", host: nil))
    }
}
