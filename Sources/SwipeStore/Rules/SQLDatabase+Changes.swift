/// The change log (`SwipeChangeLog`), written once for every backend: the
/// decisions and messages by key, the primary key's own index, so a check
/// that finds nothing new costs two index lookups and a read of N new rows
/// costs N steps, however long the logs are.
extension SQLDatabase {
    /// One statement (one round trip on PostgreSQL, where the server's
    /// change watcher asks ten times a second).
    public func changeMarks() throws -> ChangeMarks {
        try read {
            try executor.first(
                """
                SELECT (SELECT coalesce(max(key), 0) FROM decisions) AS decision_newest,
                       (SELECT coalesce(max(key), 0) FROM messages) AS message_newest,
                       (SELECT value FROM settings WHERE name = 'erasures') AS erasures
                """, []
            ) { row in
                ChangeMarks(
                    decision: try row.int("decision_newest"), message: try row.int("message_newest"),
                    erasures: try row.optionalText("erasures").flatMap { Int($0) } ?? 0)
            } ?? ChangeMarks(decision: 0, message: 0, erasures: 0)
        }
    }

    /// A decision made a match when it is a standing like or superlike and
    /// its pair's standing match was made at its moment (`matched_at` is the
    /// later like's `decided_at`); both sides, when both were decided then.
    public func decisions(after key: Int, limit: Int) throws -> [ChangedDecision] {
        try read {
            try executor.all(
                """
                SELECT d.key, v.id AS liker_id, v.name AS liker_name, p.id AS recipient_id, m.matched_at
                FROM decisions AS d
                JOIN profiles AS v ON v.key = d.viewer
                JOIN profiles AS p ON p.key = d.profile
                LEFT JOIN matches AS m
                  ON m.low = (CASE WHEN d.viewer < d.profile THEN d.viewer ELSE d.profile END)
                 AND m.high = (CASE WHEN d.viewer < d.profile THEN d.profile ELSE d.viewer END)
                 AND m.matched_at = d.decided_at AND m.unmatched_at IS NULL
                 AND d.undone_at IS NULL AND d.decision IN ('like', 'superlike')
                WHERE d.key > $1
                ORDER BY d.key
                LIMIT $2
                """, [.int(key), .int(limit)]
            ) { row in
                let matchedAt = try row.optionalText("matched_at")
                return ChangedDecision(
                    key: try row.int("key"),
                    match: try matchedAt.map { moment in
                        MatchNotice(
                            recipient: try row.text("recipient_id"), liker: try row.text("liker_id"),
                            likerName: try row.text("liker_name"), matchedAt: moment)
                    })
            }
        }
    }

    public func messages(after key: Int, limit: Int) throws -> [ChangedMessage] {
        try read {
            try executor.all(
                """
                SELECT m.key, m.seq, s.id AS sender_id, s.name AS sender_name, r.id AS recipient_id,
                       m.body, m.client_id, m.sent_at, m.read_at
                FROM messages AS m JOIN profiles AS s ON s.key = m.sender JOIN profiles AS r ON r.key = m.recipient
                WHERE m.key > $1
                ORDER BY m.key
                LIMIT $2
                """, [.int(key), .int(limit)]
            ) { row in
                ChangedMessage(
                    key: try row.int("key"), message: try Message(row: row), senderName: try row.text("sender_name"))
            }
        }
    }
}
