import Foundation
import SwipeCore
import SwipeStore

/// Settings: the last viewer, the rules and the daily quotas, the access
/// secret (the SQLite `Store+Settings`, `Rules`, `Store+AccessSecret`).
extension PostgresStore {
    public func lastViewer() throws -> String? {
        try session { try connection.scalarText("SELECT value FROM settings WHERE name = 'last_viewer'") }
    }

    public func setLastViewer(_ viewer: String) throws {
        if try lastViewer() == viewer { return }
        try write {
            try connection.run("""
                INSERT INTO settings (name, value) VALUES ('last_viewer', $1)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, .text(viewer))
        }
    }

    public func rules() throws -> Rules {
        try session { try readRules() }
    }

    func readRules() throws -> Rules {
        Rules(settings: try connection.statement("SELECT name, value FROM settings WHERE name LIKE 'rule.%'")
            .map([]) { (name: try $0.text(0), value: try $0.text(1)) })
    }

    @discardableResult
    public func setRule(_ name: String, _ value: String) throws -> Rules {
        let setting = try Rules.setting(name, value)
        try write {
            if let stored = setting.value {
                try connection.run("""
                    INSERT INTO settings (name, value) VALUES ($1, $2)
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """, .text(setting.name), .text(stored))
            } else {
                try connection.run("DELETE FROM settings WHERE name = $1", .text(setting.name))
            }
        }
        return try rules()
    }

    /// As on SQLite: the `limit`-th newest standing decision of the kind in
    /// the 24 hours before `decidedAt`, found by `decisions_quota` in at most
    /// `limit` steps; when there is one, the quota is used up until it is a
    /// day old. The viewer's row lock (`+Locks`) makes the count exact with
    /// concurrent sessions of the same viewer.
    func checkQuota(viewer: Int, decision: Decision, decidedAt: String, rules: Rules) throws {
        guard let limit = rules.limit(for: decision), let now = Timestamp.date(from: decidedAt) else { return }
        guard limit > 0 else { throw StoreError.quotaExceeded(decision: decision, limit: limit, freesAt: decidedAt) }
        let windowStart = Timestamp.string(from: now.addingTimeInterval(-86_400))
        let nth = try connection.scalarText("""
            SELECT decided_at FROM decisions
            WHERE viewer = $1 AND decision = $2 AND undone_at IS NULL AND decided_at > $3
            ORDER BY decided_at DESC LIMIT 1 OFFSET $4
            """, .int(viewer), .text(decision.rawValue), .text(windowStart), .int(limit - 1))
        guard let nth else { return }
        let freesAt = Timestamp.date(from: nth).map { Timestamp.string(from: $0.addingTimeInterval(86_400)) } ?? decidedAt
        throw StoreError.quotaExceeded(decision: decision, limit: limit, freesAt: freesAt)
    }

    /// As on SQLite: 32 random bytes as hex in `settings`, made on first use
    /// when `create`; two processes making it at once agree (the first insert
    /// wins, both read the stored value).
    public func accessSecret(create: Bool) throws -> String? {
        if let stored = try session({ try storedAccessSecret() }) { return stored }
        guard create else { return nil }
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ -> String in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        try write {
            try connection.run(
                "INSERT INTO settings (name, value) VALUES ('access_secret', $1) ON CONFLICT (name) DO NOTHING", .text(hex))
        }
        return try session { try storedAccessSecret() }
    }

    private func storedAccessSecret() throws -> String? {
        try connection.scalarText("SELECT value FROM settings WHERE name = 'access_secret'")
    }
}
