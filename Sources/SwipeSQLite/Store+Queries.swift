import SwipeCSV
import SwipeStore
import SwipeCore

extension Store {
    /// A viewer's decisions, newest first, undone ones included (with
    /// `undoneAt`), filtered by `query`.
    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        let viewer = try requireKey(query.viewer)
        return try connection.statement("""
            SELECT p.id, p.name, d.decision, d.via, d.decided_at, d.undone_at, d.key
            FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
            WHERE d.viewer = ?1 AND (?2 IS NULL OR d.decision = ?2) AND (?3 IS NULL OR d.decided_at >= ?3)
              AND (?5 IS NULL OR p.id = ?5)
            ORDER BY d.decided_at DESC, d.key DESC
            LIMIT ?4
            """).bind(.int(viewer), .optionalText(query.decision?.rawValue), .optionalText(query.since),
                      .int(query.limit ?? -1), .optionalText(query.profile)).map { row in
            HistoryEntry(
                profile: row.text(0), name: row.text(1),
                decision: try Self.decoded(row.text(2), column: "decision", ofDecision: row.int(6)),
                via: try Self.decoded(row.text(3), column: "via", ofDecision: row.int(6)),
                decidedAt: row.text(4), undoneAt: row.optionalText(5))
        }
    }

    /// The distinct ids of the profiles `viewer` has ever decided about
    /// (undone decisions included), for completing `history PROFILE_ID`.
    public func decidedProfileIDs(viewer: String) throws -> [String] {
        try connection.statement("""
            SELECT DISTINCT p.id FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
            WHERE d.viewer = ?1 ORDER BY p.id
            """).bind(.int(try requireKey(viewer))).map { $0.text(0) }
    }

    /// The viewer's current matches, newest first.
    public func matches(viewer: String) throws -> [Match] {
        let key = try requireKey(viewer)
        return try connection.statement("""
            SELECT p.id, p.name, m.matched_at
            FROM (SELECT high AS other, matched_at FROM matches WHERE low = ?1 AND unmatched_at IS NULL
                  UNION ALL
                  SELECT low AS other, matched_at FROM matches WHERE high = ?1 AND unmatched_at IS NULL) AS m
            JOIN profiles AS p ON p.key = m.other
            ORDER BY m.matched_at DESC, p.key
            """).bind(.int(key)).map { Match(profile: $0.text(0), name: $0.text(1), matchedAt: $0.text(2)) }
    }

    /// People the viewer passed on whose like or superlike of the viewer stands.
    public func missedMatches(viewer: String) throws -> [MissedMatch] {
        let key = try requireKey(viewer)
        return try connection.statement("""
            SELECT p.id, p.name, mm.their_decision, mm.liked_at, mm.passed_at
            FROM missed_matches AS mm JOIN profiles AS p ON p.key = mm.profile
            WHERE mm.viewer = ?1
            ORDER BY mm.passed_at DESC, p.key
            """).bind(.int(key)).map { row in
            // The view yields only 'like' and 'superlike'; anything else is a changed view.
            guard let theirs = Decision(rawValue: row.text(2)) else {
                throw StoreError.undecodable(table: "missed_matches", key: key, column: "their_decision", value: row.text(2))
            }
            return MissedMatch(
                profile: row.text(0), name: row.text(1), theirDecision: theirs, likedAt: row.text(3), passedAt: row.text(4))
        }
    }
}
