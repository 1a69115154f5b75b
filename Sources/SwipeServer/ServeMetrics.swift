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
    private let pushLagTimer: CoreMetrics.Timer
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
        pushLagTimer = CoreMetrics.Timer(label: "swipe_push_lag_seconds", factory: factory)
    }

    /// Sockets open now (every viewer).
    func socketsOpen(_ count: Int) {
        sockets.record(count)
    }

    /// A socket's own counters (`SocketCounters`): what its commands count, without asking the registry each time.
    func socketCounters() -> SocketCounters {
        SocketCounters(factory: factory)
    }

    /// The counter of commands with `verb` and this outcome. Made by the
    /// registry, under its lock, each time: callers keep it (`SocketCounters`).
    fileprivate static func commandCounter(_ verb: String, ok: Bool, _ factory: PrometheusMetricsFactory)
        -> CoreMetrics.Counter
    {
        CoreMetrics.Counter(
            label: "swipe_commands_total", dimensions: [("verb", verb), ("outcome", ok ? "ok" : "refused")],
            factory: factory)
    }

    fileprivate static func decisionCounter(_ decision: String, matched: Bool, _ factory: PrometheusMetricsFactory)
        -> CoreMetrics.Counter
    {
        CoreMetrics.Counter(
            label: "swipe_decisions_total",
            dimensions: [("decision", decision), ("outcome", matched ? "matched" : "stored")], factory: factory)
    }

    fileprivate static func storeTimer(_ verb: String, _ factory: PrometheusMetricsFactory) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: "swipe_store_seconds", dimensions: [("verb", verb)], factory: factory)
    }

    /// How long a match took from its commit (`matchedAt`, as stored) to
    /// being handed to the recipient's sockets.
    func pushLag(matchedAt: String, now: Date = Date()) {
        guard let made = Timestamp.date(from: matchedAt) else { return }
        let seconds = max(0, now.timeIntervalSince(made))
        pushLagTimer.recordNanoseconds(Int64(seconds * 1e9))
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

    fileprivate static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// One socket's counters and timers, each made the first time the socket
/// counts under its labels and kept: making one asks the registry, under its
/// lock, every time (a dictionary lookup by name and labels, shared by every
/// socket's thread), where a kept one only adds to its own atomic value. The
/// socket's loop owns it (one command at a time), so keeping them takes no
/// lock either. Series appear in `/metrics` on first use, as before.
struct SocketCounters {
    private struct Outcome: Hashable {
        var word: String
        var flag: Bool
    }

    private let factory: PrometheusMetricsFactory
    private var commands: [Outcome: CoreMetrics.Counter] = [:]
    private var decisions: [Outcome: CoreMetrics.Counter] = [:]
    private var timers: [String: CoreMetrics.Timer] = [:]

    fileprivate init(factory: PrometheusMetricsFactory) {
        self.factory = factory
    }

    /// One command answered: its verb, and whether it was `ok`.
    mutating func command(_ verb: String, ok: Bool) {
        let key = Outcome(word: verb, flag: ok)
        if let counter = commands[key] { return counter.increment() }
        let counter = ServeMetrics.commandCounter(verb, ok: ok, factory)
        commands[key] = counter
        counter.increment()
    }

    /// One decision stored (`matched` when it made a match).
    mutating func decision(_ decision: String, matched: Bool) {
        let key = Outcome(word: decision, flag: matched)
        if let counter = decisions[key] { return counter.increment() }
        let counter = ServeMetrics.decisionCounter(decision, matched: matched, factory)
        decisions[key] = counter
        counter.increment()
    }

    /// How long a command that reached the store took, on the thread pool.
    mutating func storeLatency(_ verb: String, _ duration: Duration) {
        let timer = timers[verb] ?? ServeMetrics.storeTimer(verb, factory)
        timers[verb] = timer
        timer.recordNanoseconds(ServeMetrics.nanoseconds(duration))
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
