import SwipeCore
import SwipeStore

/// History, matches and missed matches, in the SQLite store's orders.
extension PostgresStore {
    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        try session {
            let viewer = try requireKey(query.viewer)
            if let profile = query.profile, profile.utf8.contains(0) { return [] }
            return try connection.statement("""
                SELECT p.id, p.name, d.decision, d.via, d.decided_at, d.undone_at, d.key
                FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
                WHERE d.viewer = $1 AND ($2::text IS NULL OR d.decision = $2::text)
                  AND ($3::text IS NULL OR d.decided_at >= $3::text)
                  AND ($5::text IS NULL OR p.id = $5::text)
                ORDER BY d.decided_at DESC, d.key DESC
                LIMIT $4::bigint
                """).map([.int(viewer), .optionalText(query.decision?.rawValue), .optionalText(query.since),
                          query.limit.map { .int($0) } ?? .null, .optionalText(query.profile)]) { row in
                let key = try row.int(6)
                return HistoryEntry(
                    profile: try row.text(0), name: try row.text(1),
                    decision: try Self.decoded(row.text(2), column: "decision", ofDecision: key),
                    via: try Self.decoded(row.text(3), column: "via", ofDecision: key),
                    decidedAt: try row.text(4), undoneAt: try row.optionalText(5))
            }
        }
    }

    public func decidedProfileIDs(viewer: String) throws -> [String] {
        try session {
            try connection.statement("""
                SELECT DISTINCT p.id COLLATE "C" FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
                WHERE d.viewer = $1 ORDER BY 1
                """).map([.int(try requireKey(viewer))]) { try $0.text(0) }
        }
    }

    public func matches(viewer: String) throws -> [Match] {
        try session {
            let key = try requireKey(viewer)
            return try connection.statement("""
                SELECT p.id, p.name, m.matched_at
                FROM (SELECT high AS other, matched_at FROM matches WHERE low = $1 AND unmatched_at IS NULL
                      UNION ALL
                      SELECT low AS other, matched_at FROM matches WHERE high = $1 AND unmatched_at IS NULL) AS m
                JOIN profiles AS p ON p.key = m.other
                ORDER BY m.matched_at DESC, p.key
                """).map([.int(key)]) { Match(profile: try $0.text(0), name: try $0.text(1), matchedAt: try $0.text(2)) }
        }
    }

    public func missedMatches(viewer: String) throws -> [MissedMatch] {
        try session {
            let key = try requireKey(viewer)
            return try connection.statement("""
                SELECT p.id, p.name, mm.their_decision, mm.liked_at, mm.passed_at
                FROM missed_matches AS mm JOIN profiles AS p ON p.key = mm.profile
                WHERE mm.viewer = $1
                ORDER BY mm.passed_at DESC, p.key
                """).map([.int(key)]) { row in
                MissedMatch(
                    profile: try row.text(0), name: try row.text(1),
                    theirDecision: Decision(rawValue: try row.text(2)) ?? .like,
                    likedAt: try row.text(3), passedAt: try row.text(4))
            }
        }
    }
}
