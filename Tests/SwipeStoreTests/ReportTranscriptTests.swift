import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// A report keeps the pair's conversation for moderators (issue 21): the
/// last 50 messages sent before it, oldest first, on every backend; what
/// another pair said, or what came after, is not in it.
@Suite struct ReportTranscriptTests {
    let stores = TestStores()
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(arguments: TestBackend.all) func aReportKeepsTheLastFiftyMessagesBeforeIt(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["a", "b", "c"])
        // A burst of messages to one person: the rule messages-per-minute is ModerationTests'.
        try store.setRule("messages-per-minute", "1000000")
        for (one, other) in [("a", "b"), ("a", "c")] {
            _ = try store.record(viewer: one, profile: other, decision: .like, via: .drag, at: Self.t0)
            _ = try store.record(viewer: other, profile: one, decision: .like, via: .drag, at: Self.t0)
        }
        // 60 messages between a and b, alternating, a second apart; one between a and c.
        for index in 1...60 {
            let (from, to) = index % 2 == 1 ? ("a", "b") : ("b", "a")
            _ = try store.send(
                MessageSend(
                    viewer: from, profile: to, text: "m\(index)", clientID: "c\(index)",
                    at: Self.t0.addingTimeInterval(Double(index))))
        }
        _ = try store.send(
            MessageSend(
                viewer: "c", profile: "a", text: "other pair", clientID: "x", at: Self.t0.addingTimeInterval(30)))
        _ = try store.report(viewer: "b", profile: "a", reason: "rude", at: Self.t0.addingTimeInterval(100))
        let report = try #require(try store.reports().first)
        let kept = try store.transcript(of: report, limit: Report.transcriptLength)
        #expect(kept.map(\.text) == (11...60).map { "m\($0)" })
        #expect(kept.map(\.seq) == Array(11...60))
        #expect(kept.first?.sender == "a" && kept.first?.recipient == "b")
        // A report made before the last messages keeps only what came before it.
        let earlier = Report(
            reporter: "a", reported: "b", reason: "r", reportedAt: Timestamp.string(from: Self.t0.addingTimeInterval(5))
        )
        #expect(try store.transcript(of: earlier, limit: 50).map(\.text) == ["m1", "m2", "m3", "m4", "m5"])
    }
}
