import SwipeCore

/// What `undo` may take back (README "Discovery", rules).
public enum RewindRule: String, CaseIterable, Hashable, Sendable {
    /// As far back as the history goes (the default).
    case any
    /// Only the viewer's most recent decision, once.
    case last
    /// Only hates.
    case passes
    /// Nothing.
    case off
}

/// The database-wide rules, as stored in `settings`.
public struct Rules: Hashable, Sendable {
    /// Likes a viewer may make in any 24 hours; nil is no limit.
    public var likesPerDay: Int?
    /// Superlikes a viewer may make in any 24 hours; nil is no limit.
    public var superlikesPerDay: Int?
    public var rewind: RewindRule

    public init(likesPerDay: Int? = nil, superlikesPerDay: Int? = nil, rewind: RewindRule = .any) {
        self.likesPerDay = likesPerDay
        self.superlikesPerDay = superlikesPerDay
        self.rewind = rewind
    }

    /// The rule names, as `swipe rules set` takes them, in the order printed.
    public static let names = ["likes-per-day", "superlikes-per-day", "rewind"]

    /// Each rule's name and value as printed (`off` for no limit).
    public var entries: [(name: String, value: String)] {
        [("likes-per-day", likesPerDay.map(String.init) ?? "off"),
         ("superlikes-per-day", superlikesPerDay.map(String.init) ?? "off"),
         ("rewind", rewind.rawValue)]
    }

    /// The daily limit for `decision`, nil when none (hate never has one).
    func limit(for decision: Decision) -> Int? {
        switch decision {
        case .like: likesPerDay
        case .superlike: superlikesPerDay
        case .hate: nil
        }
    }
}

extension Store {
    /// The rules in force.
    public func rules() throws -> Rules {
        var rules = Rules()
        try connection.statement("SELECT name, value FROM settings WHERE name LIKE 'rule.%'").bind().forEachRow { row in
            let value = row.text(1)
            switch row.text(0) {
            case "rule.likes-per-day": rules.likesPerDay = Int(value)
            case "rule.superlikes-per-day": rules.superlikesPerDay = Int(value)
            case "rule.rewind": rules.rewind = RewindRule(rawValue: value) ?? .any
            default: break
            }
        }
        return rules
    }

    /// Sets rule `name` to `value`: a count from 0 to 1000000 or `off` for the
    /// daily limits, any|last|passes|off for rewind. Returns the rules now.
    ///
    /// - Throws: `StoreError.invalidValue` (nothing changed).
    @discardableResult
    public func setRule(_ name: String, _ value: String) throws -> Rules {
        let stored: String?
        switch name {
        case "likes-per-day", "superlikes-per-day":
            if value.lowercased() == "off" {
                stored = nil
            } else if let count = Int(value), (0...1_000_000).contains(count) {
                stored = String(count)
            } else {
                throw StoreError.invalidValue(name: name, value: value, expected: "a whole number from 0 to 1000000, or off")
            }
        case "rewind":
            guard let rule = RewindRule(rawValue: value.lowercased()) else {
                throw StoreError.invalidValue(name: name, value: value, expected: "any, last, passes or off")
            }
            stored = rule == .any ? nil : rule.rawValue
        default:
            throw StoreError.invalidValue(
                name: "rule", value: name, expected: Rules.names.joined(separator: ", ").replacing(", rewind", with: " or rewind"))
        }
        try connection.writeTransaction {
            if let stored {
                try connection.statement("""
                    INSERT INTO settings (name, value) VALUES (?1, ?2)
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """).bind(.text("rule." + name), .text(stored)).run()
            } else {
                try connection.statement("DELETE FROM settings WHERE name = ?1").bind(.text("rule." + name)).run()
            }
        }
        return try rules()
    }

    /// Refuses a `decision` by the viewer at `decidedAt` when its daily
    /// quota is used up: counted over the viewer's standing decisions of that
    /// kind in the 24 hours before, one range of `decisions_history`. The
    /// error says when the oldest of them leaves the window.
    func checkQuota(viewer: Int, decision: Decision, decidedAt: String, rules: Rules) throws {
        guard let limit = rules.limit(for: decision), let now = Timestamp.date(from: decidedAt) else { return }
        let windowStart = Timestamp.string(from: now.addingTimeInterval(-86_400))
        let used = try connection.statement("""
            SELECT count(*) FROM decisions
            WHERE viewer = ?1 AND decided_at > ?2 AND decision = ?3 AND undone_at IS NULL
            """).bind(.int(viewer), .text(windowStart), .text(decision.rawValue)).first { $0.int(0) } ?? 0
        guard used >= limit else { return }
        // The (used - limit + 1)-th oldest must leave the window first.
        let oldest = try connection.statement("""
            SELECT decided_at FROM decisions
            WHERE viewer = ?1 AND decided_at > ?2 AND decision = ?3 AND undone_at IS NULL
            ORDER BY decided_at LIMIT 1 OFFSET ?4
            """).bind(.int(viewer), .text(windowStart), .text(decision.rawValue), .int(used - limit))
            .first { $0.text(0) }
        let freesAt = oldest.flatMap(Timestamp.date(from:)).map { Timestamp.string(from: $0.addingTimeInterval(86_400)) }
            ?? decidedAt
        throw StoreError.quotaExceeded(decision: decision, limit: limit, freesAt: freesAt)
    }
}
