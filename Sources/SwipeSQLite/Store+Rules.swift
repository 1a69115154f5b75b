import Foundation
import SwipeCore
import SwipeCSV
import SwipeStore

extension Store {
    /// The rules in force.
    public func rules() throws -> Rules {
        Rules(settings: try connection.statement("SELECT name, value FROM settings WHERE name LIKE 'rule.%'")
            .bind().map { ($0.text(0), $0.text(1)) })
    }

    /// Sets rule `name` to `value`: a count from 0 to 1000000 or `off` for the
    /// daily limits, any|last|passes|off for rewind. Returns the rules now.
    ///
    /// - Throws: `StoreError.invalidValue` (nothing changed).
    @discardableResult
    public func setRule(_ name: String, _ value: String) throws -> Rules {
        let (key, stored) = try Rules.setting(name, value)
        try connection.writeTransaction {
            if let stored {
                try connection.statement("""
                    INSERT INTO settings (name, value) VALUES (?1, ?2)
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """).bind(.text(key), .text(stored)).run()
            } else {
                try connection.statement("DELETE FROM settings WHERE name = ?1").bind(.text(key)).run()
            }
        }
        return try rules()
    }

    /// The `?4 + 1`-th newest standing decision of kind `?2` by viewer `?1`
    /// made after `?3`, if there are that many: a range of `decisions_quota`
    /// walked from its newest end, so it stops after `?4 + 1` steps however
    /// many the window holds (timestamps are fixed-width UTC text, so text
    /// order is time order). `DiscoveryPlanTests` holds the plan.
    static let quotaSQL = """
        SELECT decided_at FROM decisions
        WHERE viewer = ?1 AND decision = ?2 AND undone_at IS NULL AND decided_at > ?3
        ORDER BY decided_at DESC LIMIT 1 OFFSET ?4
        """

    /// Refuses a `decision` by the viewer at `decidedAt` when its daily
    /// quota is used up: the viewer's standing decisions of that kind in the
    /// 24 hours before number `limit` or more exactly when the `limit`-th
    /// newest of them is inside the window. That one is read from
    /// `decisions_quota` in one descent and `limit` steps at most, where a
    /// count would step every decision in the window, of every kind. The
    /// error says when it leaves the window (24 hours after it was made); a
    /// limit of 0 refuses always, freeing never sooner than now.
    func checkQuota(viewer: Int, decision: Decision, decidedAt: String, rules: Rules) throws {
        guard let limit = rules.limit(for: decision), let now = Timestamp.date(from: decidedAt) else { return }
        guard limit > 0 else {
            throw StoreError.quotaExceeded(decision: decision, limit: limit, freesAt: decidedAt)
        }
        let windowStart = Timestamp.string(from: now.addingTimeInterval(-86_400))
        let nth = try connection.statement(Self.quotaSQL)
            .bind(.int(viewer), .text(decision.rawValue), .text(windowStart), .int(limit - 1)).first { $0.text(0) }
        guard let nth else { return }
        let freesAt = Timestamp.date(from: nth).map { Timestamp.string(from: $0.addingTimeInterval(86_400)) } ?? decidedAt
        throw StoreError.quotaExceeded(decision: decision, limit: limit, freesAt: freesAt)
    }
}
