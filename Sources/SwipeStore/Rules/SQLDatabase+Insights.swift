import Foundation
import SwipeCore

/// `swipe insights` (Documentation/Insights.md), once for both backends.
/// Each statement groups by UTC day (`substr(…, 1, 10)` of the stored
/// timestamp, the same on both) or returns one row per conversation; the
/// days are folded into weeks or months here. Every filter is a bound value:
/// `$3` the one person's key (`--as`), `$4` the city, NULL for none. The
/// city is a condition on the people's keys, not a join: without `--city`
/// (NULL) it is never evaluated, and no statement looks up a profile per
/// row (at 1M profiles a join cost the market's rows a random read of the
/// profiles table each, most of the time `insights --by day` took).
extension SQLDatabase {
    public func insights(_ query: InsightQuery) throws -> [InsightRow] {
        try read {
            let viewer = try query.viewer.map { try requireKey($0) }
            if let city = query.city, !executor.dialect.canHold(city) { return emptyRows(query) }
            let sinceDay = String(query.since.prefix(10)), untilDay = String(query.until.prefix(10))
            var rows: [String: InsightRow] = [:]
            let names = query.by.names(from: sinceDay, through: untilDay)
            for name in names { rows[name] = InsightRow(period: name) }
            var periodOfDay: [String: String] = [:]
            func period(_ day: String) -> String {
                if let known = periodOfDay[day] { return known }
                let name = query.by.name(ofDay: day)
                periodOfDay[day] = name
                return name
            }
            // The range as half-open text bounds: `until` is inclusive to the millisecond.
            let end = Timestamp.date(from: query.until).map { Timestamp.string(from: $0 + 0.001) } ?? query.until
            let arguments: [SQLValue] = [
                .text(query.since), .text(end), viewer.map { SQLValue.int($0) } ?? SQLValue.null,
                .optionalText(query.city),
            ]
            try executor.each(Self.insightDecisionsSQL, arguments) { row in
                let name = period(try row.text("day"))
                let count = try row.int("n")
                switch try row.text("decision") {
                case Decision.like.rawValue: rows[name]?.likes += count
                case Decision.superlike.rawValue: rows[name]?.superlikes += count
                default: rows[name]?.hates += count
                }
                return true
            }
            var active: [String: Set<Int>] = [:]
            try executor.each(Self.insightActiveSQL, arguments) { row in
                let day = period(try row.text("day")), person = try row.int("person")
                active[day, default: []].insert(person)
                return true
            }
            for (name, people) in active { rows[name]?.active = people.count }
            try executor.each(Self.insightMatchesSQL, arguments) { row in
                let day = period(try row.text("day")), count = try row.int("n")
                rows[day]?.matches += count
                return true
            }
            var hours: [String: [Double]] = [:]
            try executor.each(Self.insightConversationsSQL, arguments) { row in
                let sent = try row.text("sent_at")
                let name = period(String(sent.prefix(10)))
                rows[name]?.conversations += 1
                let replied = try row.int("replied"), matched = try row.text("matched_at")
                rows[name]?.replied += replied
                if let sentAt = Timestamp.date(from: sent), let matchedAt = Timestamp.date(from: matched) {
                    hours[name, default: []].append(sentAt.timeIntervalSince(matchedAt) / 3600)
                }
                return true
            }
            for (name, values) in hours { rows[name]?.medianHoursToFirstMessage = InsightRow.median(values) }
            if viewer == nil {
                var exposure: [String: [Int: Int]] = [:]
                try executor.each(Self.insightExposureSQL, [arguments[0], arguments[1], arguments[3]]) { row in
                    let day = period(try row.text("day")), person = try row.int("person"), count = try row.int("n")
                    exposure[day, default: [:]][person, default: 0] += count
                    return true
                }
                for (name, counts) in exposure { rows[name]?.exposureGini = InsightRow.gini(Array(counts.values)) }
            }
            return names.compactMap { rows[$0] }
        }
    }

    private func emptyRows(_ query: InsightQuery) -> [InsightRow] {
        query.by.names(from: String(query.since.prefix(10)), through: String(query.until.prefix(10))).map {
            InsightRow(period: $0)
        }
    }

    /// Standing decisions per day and kind, of the one person or the city's people.
    static var insightDecisionsSQL: String {
        """
        SELECT substr(d.decided_at, 1, 10) AS day, d.decision AS decision, count(*) AS n
        FROM decisions AS d
        WHERE d.decided_at >= $1 AND d.decided_at < $2 AND d.undone_at IS NULL
          AND (CAST($3 AS BIGINT) IS NULL OR d.viewer = CAST($3 AS BIGINT))
          AND (CAST($4 AS TEXT) IS NULL OR d.viewer IN (SELECT c.key FROM profiles AS c WHERE c.city = CAST($4 AS TEXT)))
        GROUP BY substr(d.decided_at, 1, 10), d.decision
        """
    }

    /// Who acted on each day: made a decision (undone later or not) or sent a message.
    static var insightActiveSQL: String {
        """
        SELECT substr(d.decided_at, 1, 10) AS day, d.viewer AS person
        FROM decisions AS d
        WHERE d.decided_at >= $1 AND d.decided_at < $2
          AND (CAST($3 AS BIGINT) IS NULL OR d.viewer = CAST($3 AS BIGINT))
          AND (CAST($4 AS TEXT) IS NULL OR d.viewer IN (SELECT c.key FROM profiles AS c WHERE c.city = CAST($4 AS TEXT)))
        UNION
        SELECT substr(m.sent_at, 1, 10) AS day, m.sender AS person
        FROM messages AS m
        WHERE m.sent_at >= $1 AND m.sent_at < $2
          AND (CAST($3 AS BIGINT) IS NULL OR m.sender = CAST($3 AS BIGINT))
          AND (CAST($4 AS TEXT) IS NULL OR m.sender IN (SELECT c.key FROM profiles AS c WHERE c.city = CAST($4 AS TEXT)))
        """
    }

    /// Matches per day of `matched_at` (the later of the two likes), ended ones too.
    static var insightMatchesSQL: String {
        """
        SELECT substr(m.matched_at, 1, 10) AS day, count(*) AS n
        FROM matches AS m
        WHERE m.matched_at >= $1 AND m.matched_at < $2
          AND (CAST($3 AS BIGINT) IS NULL OR m.low = CAST($3 AS BIGINT) OR m.high = CAST($3 AS BIGINT))
          AND (CAST($4 AS TEXT) IS NULL
               OR EXISTS (SELECT 1 FROM profiles AS c WHERE c.key IN (m.low, m.high) AND c.city = CAST($4 AS TEXT)))
        GROUP BY substr(m.matched_at, 1, 10)
        """
    }

    /// Each conversation whose first message falls in the range: when it
    /// was sent, when its match was made, whether the other person ever answered.
    static var insightConversationsSQL: String {
        """
        SELECT f.sent_at AS sent_at, m.matched_at AS matched_at,
               CASE WHEN EXISTS (SELECT 1 FROM messages AS r
                                 WHERE r.low = f.low AND r.high = f.high AND r.sender = f.recipient)
                    THEN 1 ELSE 0 END AS replied
        FROM messages AS f JOIN matches AS m ON m.low = f.low AND m.high = f.high
        WHERE f.seq = 1 AND f.sent_at >= $1 AND f.sent_at < $2
          AND (CAST($3 AS BIGINT) IS NULL OR f.low = CAST($3 AS BIGINT) OR f.high = CAST($3 AS BIGINT))
          AND (CAST($4 AS TEXT) IS NULL
               OR EXISTS (SELECT 1 FROM profiles AS c WHERE c.key IN (f.low, f.high) AND c.city = CAST($4 AS TEXT)))
        """
    }

    /// How often each person was decided about per day (every decision, an
    /// undone one too: each is a card that was dealt), for the exposure Gini.
    static var insightExposureSQL: String {
        """
        SELECT substr(d.decided_at, 1, 10) AS day, d.profile AS person, count(*) AS n
        FROM decisions AS d
        WHERE d.decided_at >= $1 AND d.decided_at < $2
          AND (CAST($3 AS TEXT) IS NULL
               OR d.profile IN (SELECT c.key FROM profiles AS c WHERE c.city = CAST($3 AS TEXT)))
        GROUP BY substr(d.decided_at, 1, 10), d.profile
        """
    }
}
