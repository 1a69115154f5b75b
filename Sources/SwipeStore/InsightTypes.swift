import Foundation

/// How `swipe insights` cuts time (Documentation/Insights.md): UTC days,
/// ISO weeks (Monday first) and calendar months.
public enum InsightPeriod: String, CaseIterable, Sendable {
    case day, week, month

    /// The period holding the UTC day `day` (`YYYY-MM-DD`): `2026-11-20`,
    /// `2026-W47` or `2026-11`.
    public func name(ofDay day: String) -> String {
        switch self {
        case .day: return day
        case .month: return String(day.prefix(7))
        case .week:
            guard let date = Timestamp.date(from: day) else { return day }
            let parts = InsightPeriod.isoCalendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            let year = parts.yearForWeekOfYear ?? 0, week = parts.weekOfYear ?? 0
            return String(format: "%04d-W%02d", year, week)
        }
    }

    /// Every period holding a day from `first` through `last` (UTC days,
    /// `YYYY-MM-DD`), in time order, each once.
    public func names(from first: String, through last: String) -> [String] {
        guard let start = Timestamp.date(from: first), let end = Timestamp.date(from: last), start <= end else {
            return []
        }
        var out: [String] = []
        var day = start
        while day <= end {
            let name = name(ofDay: String(Timestamp.string(from: day).prefix(10)))
            if out.last != name { out.append(name) }
            day += 86_400
        }
        return out
    }

    static let isoCalendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// What `swipe insights` counts: every decision, match and message in
/// [`since`, `until`], cut into periods `by`; only `viewer`'s own when set,
/// only the people of `city` when set.
public struct InsightQuery: Sendable {
    /// The first instant counted (a stored timestamp, `Timestamp.normalized`).
    public var since: String
    /// The last instant counted, inclusive (a stored timestamp).
    public var until: String
    public var by: InsightPeriod
    /// One person's own rows (`--as V`), by external id.
    public var viewer: String?
    /// Only the people whose profile's city is exactly this (`--city C`).
    public var city: String?

    public init(since: String, until: String, by: InsightPeriod, viewer: String? = nil, city: String? = nil) {
        self.since = since
        self.until = until
        self.by = by
        self.viewer = viewer
        self.city = city
    }
}

/// One period's row of `swipe insights`; each key is defined in
/// Documentation/Insights.md.
public struct InsightRow: Equatable, Sendable {
    public var period: String
    public var active = 0
    public var likes = 0
    public var superlikes = 0
    public var hates = 0
    public var matches = 0
    public var conversations = 0
    public var replied = 0
    public var medianHoursToFirstMessage: Double?
    public var exposureGini: Double?

    public init(period: String) { self.period = period }

    /// (likes + superlikes) / all standing decisions, nil when none.
    public var likeRate: Double? {
        let all = likes + superlikes + hates
        return all == 0 ? nil : Double(likes + superlikes) / Double(all)
    }

    /// matches × 100 / (likes + superlikes), nil when no like.
    public var matchesPer100Likes: Double? {
        let positive = likes + superlikes
        return positive == 0 ? nil : Double(matches) * 100 / Double(positive)
    }

    /// The keys, in output order.
    public static let keys = [
        "period", "active", "likes", "superlikes", "hates", "matches", "like_rate", "matches_per_100_likes",
        "conversations", "replied", "median_hours_to_first_message", "exposure_gini",
    ]

    /// The keys `--measure` may chart: every one but `period`.
    public static var measures: [String] { Array(keys.dropFirst()) }

    /// The value of `key` (one of `measures`), nil for a null.
    public func value(of key: String) -> Double? {
        switch key {
        case "active": Double(active)
        case "likes": Double(likes)
        case "superlikes": Double(superlikes)
        case "hates": Double(hates)
        case "matches": Double(matches)
        case "like_rate": likeRate
        case "matches_per_100_likes": matchesPer100Likes
        case "conversations": Double(conversations)
        case "replied": Double(replied)
        case "median_hours_to_first_message": medianHoursToFirstMessage
        case "exposure_gini": exposureGini
        default: nil
        }
    }
}

/// Insights over the history (Documentation/Insights.md).
public protocol SwipeInsights: AnyObject {
    /// One row per period of `query`'s range, every period present even when empty.
    ///
    /// - Throws: `StoreError.unknownProfile` for an unknown `query.viewer`.
    func insights(_ query: InsightQuery) throws -> [InsightRow]

    /// The viewer's current matches as `matches(viewer:)` lists them (newest
    /// first), each with its conversation's message count and last message time.
    ///
    /// - Throws: `StoreError.unknownProfile` for an unknown viewer.
    func matchActivity(viewer: String) throws -> [MatchActivity]
}

extension InsightRow {
    /// The Gini coefficient of `counts` (each above 0): 0 when all are
    /// equal, towards 1 when one holds everything; nil when empty.
    public static func gini(_ counts: [Int]) -> Double? {
        guard !counts.isEmpty else { return nil }
        let sorted = counts.sorted()
        let total = sorted.reduce(0, +)
        guard total > 0 else { return nil }
        var weighted = 0.0
        for (index, count) in sorted.enumerated() { weighted += Double(index + 1) * Double(count) }
        let n = Double(sorted.count)
        return 2 * weighted / (n * Double(total)) - (n + 1) / n
    }

    /// The median of `values`: the middle one, or the mean of the two middle ones; nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
