import SwipeCore

extension SQLDatabase {
    /// `swipe matches --with-messages`: the rows of `matches(viewer:)`, in
    /// its order, each with its conversation's count and newest time, read
    /// off messages_order (low, high, seq) per match: one descent each.
    public func matchActivity(viewer: String) throws -> [MatchActivity] {
        try read {
            try executor.all(
                """
                SELECT p.id AS id, p.name AS name, m.matched_at AS matched_at,
                       (SELECT count(*) FROM messages AS c WHERE c.low = m.low AND c.high = m.high) AS messages,
                       (SELECT l.sent_at FROM messages AS l
                        WHERE l.low = m.low AND l.high = m.high ORDER BY l.seq DESC LIMIT 1) AS last_message_at
                FROM (SELECT low, high, high AS other, matched_at FROM matches WHERE low = $1 AND unmatched_at IS NULL
                      UNION ALL
                      SELECT low, high, low AS other, matched_at FROM matches WHERE high = $1 AND unmatched_at IS NULL) AS m
                JOIN profiles AS p ON p.key = m.other AND \(Self.notSuspended("p.key", executor.dialect))
                ORDER BY m.matched_at DESC, p.key
                """, [.int(try requireKey(viewer))]
            ) { row in
                MatchActivity(
                    profile: try row.text("id"), name: try row.text("name"), matchedAt: try row.text("matched_at"),
                    messages: try row.int("messages"), lastMessageAt: try row.optionalText("last_message_at"))
            }
        }
    }
}
