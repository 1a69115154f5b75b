import CoreMetrics
import Foundation
import Prometheus
import SwipeStore
import Synchronization

/// What `GET /metrics` tells a scraper (Prometheus text format): sockets
/// open, commands and decisions by outcome, store latency, commits and push
/// lag. Counted through swift-metrics, kept in this server's own
/// swift-prometheus registry (never the process-wide bootstrap, so two
/// servers in one process, as in the tests, keep separate counts).
///
/// Labels are words from a fixed set (a command's verb, an outcome); never a
/// viewer, a profile, a token or any text a person typed.
public struct ServeMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let sockets: CoreMetrics.Gauge
    private let commits: CoreMetrics.Counter
    private let committed = Committed()

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Store calls take from tens of microseconds (SQLite) to a few
        // milliseconds (PostgreSQL over a network).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .seconds(1),
        ]
        self.factory = factory
        sockets = CoreMetrics.Gauge(label: "swipe_sockets_open", factory: factory)
        commits = CoreMetrics.Counter(label: "swipe_commits_total", factory: factory)
    }

    /// Sockets open now (every viewer).
    func socketsOpen(_ count: Int) {
        sockets.record(count)
    }

    /// One command answered: its verb, and whether it was `ok`.
    func command(_ verb: String, ok: Bool) {
        CoreMetrics.Counter(
            label: "swipe_commands_total", dimensions: [("verb", verb), ("outcome", ok ? "ok" : "refused")],
            factory: factory
        ).increment()
    }

    /// One decision stored (`matched` when it made a match).
    func decision(_ decision: String, matched: Bool) {
        CoreMetrics.Counter(
            label: "swipe_decisions_total",
            dimensions: [("decision", decision), ("outcome", matched ? "matched" : "stored")], factory: factory
        ).increment()
    }

    /// How long a command that reached the store took, on the thread pool.
    func storeLatency(_ verb: String, _ duration: Duration) {
        CoreMetrics.Timer(label: "swipe_store_seconds", dimensions: [("verb", verb)], factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// How long a match took from its commit (`matchedAt`, as stored) to
    /// being handed to the recipient's sockets.
    func pushLag(matchedAt: String, now: Date = Date()) {
        guard let made = Timestamp.date(from: matchedAt) else { return }
        let seconds = max(0, now.timeIntervalSince(made))
        CoreMetrics.Timer(label: "swipe_push_lag_seconds", factory: factory).recordNanoseconds(Int64(seconds * 1e9))
    }

    /// The commits made so far (group commit batches), brought up to `total`.
    func commitsSoFar(_ total: Int) {
        let added = committed.advance(to: total)
        if added > 0 { commits.increment(by: added) }
    }

    /// The text a scraper reads.
    func exposition() -> String {
        registry.emitToString()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// The commit count last reported, so the counter only ever goes up.
private final class Committed: Sendable {
    private let last = Mutex(0)

    func advance(to total: Int) -> Int {
        last.withLock { last in
            defer { last = max(last, total) }
            return max(0, total - last)
        }
    }
}
