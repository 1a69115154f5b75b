import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The analysts' views (decision_log and match_history, schema version 7,
/// Documentation/Insights.md) count as `insights --by day` counts: over the
/// random ledgers of `InsightsModelTests` (an imported history, then likes,
/// undos, unmatches and messages), each day's likes, superlikes, hates,
/// matches, conversations and replies grouped from the views equal the
/// store's insights rows and the brute-force model's, on both backends.
extension InsightsModelTests {
    /// Counts per (day, name) from `sql`, whose rows are `day`, `name`, `n`.
    static func grouped<D: SQLDatabase>(_ database: D, _ sql: String) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        try database.read {
            try database.executor.each(sql, []) { row in
                counts[try row.text("day"), default: [:]][try row.text("name"), default: 0] += try row.int("n")
                return true
            }
        }
        return counts
    }

    /// Each day's counts, as an analyst writes them over the views alone.
    static let viewQueries = [
        """
        SELECT decided_day AS day, decision AS name, count(*) AS n FROM decision_log
        WHERE undone = 0 GROUP BY decided_day, decision
        """,
        "SELECT matched_day AS day, 'matches' AS name, count(*) AS n FROM match_history GROUP BY matched_day",
        """
        SELECT substr(first_message_at, 1, 10) AS day, 'conversations' AS name, count(*) AS n FROM match_history
        WHERE first_message_at IS NOT NULL GROUP BY substr(first_message_at, 1, 10)
        """,
        """
        SELECT substr(first_message_at, 1, 10) AS day, 'replied' AS name, sum(replied) AS n FROM match_history
        WHERE first_message_at IS NOT NULL GROUP BY substr(first_message_at, 1, 10)
        """,
    ]

    @Test(arguments: TestBackend.all) func theViewsCountEachDayAsInsightsDoes(_ backend: TestBackend) throws {
        for seed: UInt64 in [4, 5, 6] {
            let store = try stores.store(backend, profiles: [], "views-\(seed)")
            let ledger = try play(store, seed: seed)
            let sql = try #require(store as? any SQLDatabase)
            var views: [String: [String: Int]] = [:]
            for query in Self.viewQueries {
                for (day, counts) in try Self.grouped(sql, query) { views[day, default: [:]].merge(counts) { $0 + $1 } }
            }
            let firstDay = Self.start / 86_400_000, lastDay = firstDay + 40
            let rows = try store.insights(
                InsightQuery(
                    since: Self.stamp(firstDay * 86_400_000), until: Self.stamp((lastDay + 1) * 86_400_000 - 1),
                    by: .day))
            let model = Self.expected(ledger, fromDay: firstDay, throughDay: lastDay, by: .day, viewer: nil, city: nil)
            #expect(rows.count == 41 && model.count == 41)
            #expect(Set(views.keys).isSubset(of: Set(rows.map(\.period))), "no view row outside the range")
            #expect(rows.reduce(0) { $0 + $1.matches } > 0 && rows.reduce(0) { $0 + $1.conversations } > 0)
            for (row, want) in zip(rows, model) {
                let day = views[row.period] ?? [:]
                let fromViews = [
                    day["like"] ?? 0, day["superlike"] ?? 0, day["hate"] ?? 0, day["matches"] ?? 0,
                    day["conversations"] ?? 0, day["replied"] ?? 0,
                ]
                let fromInsights = [row.likes, row.superlikes, row.hates, row.matches, row.conversations, row.replied]
                let fromModel = [
                    want.likes, want.superlikes, want.hates, want.matches, want.conversations, want.replied,
                ]
                #expect(fromViews == fromInsights, "seed \(seed) \(backend) \(row.period)")
                #expect(fromViews == fromModel, "seed \(seed) \(backend) \(row.period)")
            }
            // Every decision is one row of decision_log, and every match one of match_history.
            let all = try Self.grouped(
                sql,
                "SELECT 'all' AS day, CAST(imported AS TEXT) AS name, count(*) AS n FROM decision_log GROUP BY imported"
            )
            #expect((all["all"]?.values.reduce(0, +) ?? 0) == ledger.decisions.count)
            #expect((all["all"]?["1"] ?? 0) > 0, "the imported history is marked")
            let matches = try Self.grouped(sql, "SELECT 'all' AS day, 'n' AS name, count(*) AS n FROM match_history")
            #expect(matches["all"]?["n"] == ledger.matches.count)
        }
    }
}
