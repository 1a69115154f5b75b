import SwipeCore

/// History, matches, missed matches and decided ids, in one order on every backend.
extension SQLDatabase {
    /// A viewer's decisions, newest first, undone ones included (with
    /// `undoneAt`), filtered by `query`; none about a person with whom a
    /// block stands either way (a block hides both from each other in every
    /// list, as an erase does).
    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        try read {
            let viewer = try requireKey(query.viewer)
            if let profile = query.profile, !executor.dialect.canHold(profile) { return [] }
            return try executor.all(
                HistoryEntry.self,
                """
                SELECT p.id, p.name, d.decision, d.via, d.decided_at, d.undone_at, d.key
                FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
                WHERE d.viewer = $1 AND (CAST($2 AS TEXT) IS NULL OR d.decision = CAST($2 AS TEXT))
                  AND (CAST($3 AS TEXT) IS NULL OR d.decided_at >= CAST($3 AS TEXT))
                  AND (CAST($6 AS TEXT) IS NULL OR d.decided_at <= CAST($6 AS TEXT))
                  AND (CAST($5 AS TEXT) IS NULL OR p.id = CAST($5 AS TEXT))
                  AND NOT EXISTS (SELECT 1 FROM blocks AS b
                                  WHERE (b.blocker = $1 AND b.blocked = p.key) OR (b.blocker = p.key AND b.blocked = $1))
                  AND \(Self.notSuspended("p.key", executor.dialect))
                ORDER BY d.decided_at DESC, d.key DESC
                LIMIT $4
                """,
                [
                    .int(viewer), .optionalText(query.decision?.rawValue), .optionalText(query.since),
                    .int(query.limit ?? Int.max), .optionalText(query.profile), .optionalText(query.until),
                ])
        }
    }

    /// The distinct ids of the profiles `viewer` has ever decided about
    /// (undone decisions included), in byte order, for completing `history PROFILE_ID`.
    public func decidedProfileIDs(viewer: String) throws -> [String] {
        try read {
            try executor.all(
                "SELECT DISTINCT p.id" + executor.dialect.byteOrder
                    + " AS id FROM decisions AS d JOIN profiles AS p ON p.key = d.profile WHERE d.viewer = $1"
                    + " AND NOT EXISTS (SELECT 1 FROM blocks AS b"
                    + " WHERE (b.blocker = $1 AND b.blocked = p.key) OR (b.blocker = p.key AND b.blocked = $1))"
                    + " ORDER BY 1",
                [.int(try requireKey(viewer))]
            ) { try $0.text("id") }
        }
    }

    /// The viewer's current matches, newest first.
    public func matches(viewer: String) throws -> [Match] {
        try read {
            try executor.all(
                Match.self,
                """
                SELECT p.id, p.name, m.matched_at
                FROM (SELECT high AS other, matched_at FROM matches WHERE low = $1 AND unmatched_at IS NULL
                      UNION ALL
                      SELECT low AS other, matched_at FROM matches WHERE high = $1 AND unmatched_at IS NULL) AS m
                JOIN profiles AS p ON p.key = m.other AND \(Self.notSuspended("p.key", executor.dialect))
                ORDER BY m.matched_at DESC, p.key
                """, [.int(try requireKey(viewer))])
        }
    }

    /// People the viewer passed on whose like or superlike of the viewer stands.
    public func missedMatches(viewer: String) throws -> [MissedMatch] {
        try read {
            let key = try requireKey(viewer)
            return try executor.all(
                """
                SELECT p.id, p.name, mm.their_decision, mm.liked_at, mm.passed_at
                FROM missed_matches AS mm JOIN profiles AS p ON p.key = mm.profile
                WHERE mm.viewer = $1
                  AND NOT EXISTS (SELECT 1 FROM blocks AS b
                                  WHERE (b.blocker = $1 AND b.blocked = p.key) OR (b.blocker = p.key AND b.blocked = $1))
                  AND \(Self.notSuspended("p.key", executor.dialect))
                ORDER BY mm.passed_at DESC, p.key
                """, [.int(key)]
            ) { row in
                // The view yields only 'like' and 'superlike'; anything else is a changed view.
                MissedMatch(
                    profile: try row.text("id"), name: try row.text("name"),
                    theirDecision: try row.decoded("their_decision", table: "missed_matches", key: key),
                    likedAt: try row.text("liked_at"), passedAt: try row.text("passed_at"))
            }
        }
    }
}

extension HistoryEntry: FetchableRow {
    public init(row: some SQLRow) throws {
        let key = try row.int("key")
        self.init(
            profile: try row.text("id"), name: try row.text("name"), decision: try row.decoded("decision", key: key),
            via: try row.decoded("via", key: key), decidedAt: try row.text("decided_at"),
            undoneAt: try row.optionalText("undone_at"))
    }
}

extension Match: FetchableRow {
    public init(row: some SQLRow) throws {
        self.init(profile: try row.text("id"), name: try row.text("name"), matchedAt: try row.text("matched_at"))
    }
}
