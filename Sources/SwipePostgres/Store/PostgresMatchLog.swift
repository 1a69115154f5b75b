/// The matches made since a moment, as the database holds them: what a
/// `swipe serve` process that could not hear LISTEN/NOTIFY for a while
/// reads to push the matches it missed.
public enum PostgresMatchLog {
    /// One match: `liker` made it (their like came second), `recipient` is
    /// the one told.
    public struct Made: Hashable, Sendable {
        public var recipient: String
        public var liker: String
        public var likerName: String
        public var matchedAt: String

        public init(recipient: String, liker: String, likerName: String, matchedAt: String) {
            self.recipient = recipient
            self.liker = liker
            self.likerName = likerName
            self.matchedAt = matchedAt
        }
    }

    /// Matches standing now and made at `since` or later (timestamps as
    /// stored, `YYYY-MM-DDTHH:MM:SS.mmmZ`), oldest first, at most `limit`.
    /// The liker is the side whose standing like was decided at the match's
    /// moment; when both were, both are listed.
    public static func made(since: String, limit: Int = 1000, on connection: PGConnection) throws -> [Made] {
        try connection.statement(
            """
            SELECT r.id, l.id, l.name, m.matched_at
            FROM matches AS m
            JOIN decisions AS d
              ON ((d.viewer = m.low AND d.profile = m.high) OR (d.viewer = m.high AND d.profile = m.low))
             AND d.decided_at = m.matched_at AND d.undone_at IS NULL AND d.decision IN ('like', 'superlike')
            JOIN profiles AS l ON l.key = d.viewer
            JOIN profiles AS r ON r.key = d.profile
            WHERE m.matched_at >= $1 AND m.unmatched_at IS NULL
            ORDER BY m.matched_at, d.key
            LIMIT $2
            """
        ).map([.text(since), .int(limit)]) { row in
            Made(
                recipient: try row.text(0), liker: try row.text(1), likerName: try row.text(2),
                matchedAt: try row.text(3))
        }
    }
}
