import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeCore
import SwipeSQLite
import SwipeStore
import Testing
import WSClient

@testable import SwipeServer

/// `GET /metrics` (Documentation/Serve.md, "Operations"): Prometheus's text
/// format, scraped by the test as Prometheus would, with counts worked out by
/// hand from what the socket did; no viewer, profile or token in it; and only
/// for a scraper on this machine.
struct MetricsTests {
    let fixture: ServerFixture

    /// bob already likes alice: her first card is bob, and her like matches.
    init() throws {
        fixture = try ServerFixture()
        let store = try SQLiteStore(path: fixture.path, create: false)
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .drag)
    }

    @Test func aScrapeCountsWhatTheSocketsDid() async throws {
        let token = try fixture.token(for: "alice")
        let during = Box<[String: Double]>()
        let after = Box<(samples: [String: Double], text: String)>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) {
                inbound, outbound, _ in
                let answers = try await ServerSocketTests.exchange(
                    ["like", "nope", "frobnicate", "drag 10 0", "cancel"], inbound: inbound, outbound: outbound
                ).answers
                #expect(answers.map { $0["ok"] as? Bool } == [true, true, false, true, true])
                #expect(answers[0]["match"] as? Bool == true)
                during.value = try await Self.scrape(client).samples
                try await outbound.close(.normalClosure, reason: nil)
            }
            after.value = try await Self.scrape(client)
        }
        let open = try #require(during.value)
        #expect(open["swipe_sockets_open"] == 1)
        let (samples, text) = try #require(after.value)
        #expect(samples["swipe_sockets_open"] == 0)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="like"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="nope"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="refused",verb="invalid"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="drag"}"#] == 1)
        #expect(samples[#"swipe_decisions_total{decision="like",outcome="matched"}"#] == 1)
        #expect(samples[#"swipe_decisions_total{decision="hate",outcome="stored"}"#] == 1)
        // Store latency for what reached the store; a drag is deck arithmetic.
        #expect(samples[#"swipe_store_seconds_count{verb="like"}"#] == 1)
        #expect(samples[#"swipe_store_seconds_count{verb="drag"}"#] == nil)
        // Two decisions, each committed (one at a time here: no batch to share).
        #expect((samples["swipe_commits_total"] ?? 0) >= 2)
        // The match was handed to bob's (absent) sockets as it was made.
        #expect(samples["swipe_push_lag_seconds_count"] == 1)
        for secret in ["alice", "bob", token] { #expect(!text.contains(secret), "metrics name \(secret)") }
    }

    @Test func aScrapeFromBehindAProxyIsRefused() async throws {
        try await fixture.withServer { client in
            try await client.execute(uri: "/metrics", method: .get, headers: [.init("X-Forwarded-For")!: "203.0.113.9"])
            { response in
                #expect(response.status == .forbidden)
                #expect(!String(buffer: response.body).contains("swipe_"))
            }
        }
    }

    /// The samples of one scrape, keyed by name and labels (labels sorted by
    /// name, as written here), values as numbers.
    static func scrape(_ client: any TestClientProtocol) async throws -> (samples: [String: Double], text: String) {
        try await client.execute(uri: "/metrics", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            return (samples(text), text)
        }
    }

    /// The samples of an exposition's text, keyed as `scrape` keys them.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
            else { continue }
            var key = String(line[..<space])
            if let open = key.firstIndex(of: "{") {
                let labels = key[key.index(after: open)..<key.index(before: key.endIndex)]
                    .split(separator: ",").sorted().joined(separator: ",")
                key = String(key[..<open]) + "{" + labels + "}"
            }
            samples[key] = value
        }
        return samples
    }

    /// Each socket keeps the counters it made (no registry lookup per
    /// command), and every socket's counts still add up in one series per
    /// label set: counts worked out by hand from the calls.
    @Test func socketsKeepTheirCountersAndCountInOneSeries() {
        let metrics = ServeMetrics()
        var one = metrics.socketCounters()
        var two = metrics.socketCounters()
        for _ in 0..<3 { one.command("like", ok: true) }
        two.command("like", ok: true)
        two.command("like", ok: false)
        one.command("chat-message", ok: true)
        one.decision("like", matched: true)
        two.decision("like", matched: true)
        two.decision("hate", matched: false)
        one.storeLatency("like", .milliseconds(1))
        two.storeLatency("like", .milliseconds(3))
        let samples = Self.samples(metrics.exposition())
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="like"}"#] == 4)
        #expect(samples[#"swipe_commands_total{outcome="refused",verb="like"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="ok",verb="chat-message"}"#] == 1)
        #expect(samples[#"swipe_commands_total{outcome="refused",verb="chat-message"}"#] == nil, "never counted")
        #expect(samples[#"swipe_decisions_total{decision="like",outcome="matched"}"#] == 2)
        #expect(samples[#"swipe_decisions_total{decision="hate",outcome="stored"}"#] == 1)
        #expect(samples[#"swipe_store_seconds_count{verb="like"}"#] == 2)
        #expect(abs((samples[#"swipe_store_seconds_sum{verb="like"}"#] ?? 0) - 0.004) < 1e-9)
    }
}
