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
    ///
    /// The page is cut from the key's own index first and every other table
    /// is reached from its rows by key (correlated lookups, names only for a
    /// match): with joins, PostgreSQL's generic plan for `key > $1` (a third
    /// of the table, by its default guess) hashed all of `profiles` on every
    /// check, 17 ms ten times a second under `make bench-serve`.
    public func decisions(after key: Int, limit: Int) throws -> [ChangedDecision] {
        try read {
            try executor.all(Self.changedDecisionsSQL, [.int(key), .int(limit)]) { row in
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

    /// Cut from the key's index first, like `decisions(after:limit:)`, for the same reason.
    public func messages(after key: Int, limit: Int) throws -> [ChangedMessage] {
        try read {
            try executor.all(Self.changedMessagesSQL, [.int(key), .int(limit)]) { row in
                ChangedMessage(
                    key: try row.int("key"), message: try Message(row: row), senderName: try row.text("sender_name"))
            }
        }
    }

    /// The page of decisions after `$1` (at most `$2`), `decisions(after:limit:)`'s.
    /// `ChangeLogPlanTests` holds its generic plan on PostgreSQL to the keys' indexes.
    package static var changedDecisionsSQL: String {
        """
        SELECT d.key, d.matched_at,
               CASE WHEN d.matched_at IS NOT NULL THEN (SELECT id FROM profiles WHERE key = d.viewer) END
                 AS liker_id,
               CASE WHEN d.matched_at IS NOT NULL THEN (SELECT name FROM profiles WHERE key = d.viewer) END
                 AS liker_name,
               CASE WHEN d.matched_at IS NOT NULL THEN (SELECT id FROM profiles WHERE key = d.profile) END
                 AS recipient_id
        FROM (
          SELECT l.key, l.viewer, l.profile,
                 CASE WHEN l.undone_at IS NULL AND l.decision IN ('like', 'superlike') THEN
                   (SELECT m.matched_at FROM matches AS m
                    WHERE m.low = (CASE WHEN l.viewer < l.profile THEN l.viewer ELSE l.profile END)
                      AND m.high = (CASE WHEN l.viewer < l.profile THEN l.profile ELSE l.viewer END)
                      AND m.matched_at = l.decided_at AND m.unmatched_at IS NULL)
                 END AS matched_at
          FROM decisions AS l
          WHERE l.key > $1
          ORDER BY l.key
          LIMIT $2
        ) AS d
        ORDER BY d.key
        """
    }

    /// The page of messages after `$1` (at most `$2`), `messages(after:limit:)`'s.
    package static var changedMessagesSQL: String {
        """
        SELECT m.key, m.seq, (SELECT id FROM profiles WHERE key = m.sender) AS sender_id,
               (SELECT name FROM profiles WHERE key = m.sender) AS sender_name,
               (SELECT id FROM profiles WHERE key = m.recipient) AS recipient_id,
               m.body, m.client_id, m.sent_at, m.read_at
        FROM (
          SELECT l.key, l.seq, l.sender, l.recipient, l.body, l.client_id, l.sent_at, l.read_at
          FROM messages AS l
          WHERE l.key > $1
          ORDER BY l.key
          LIMIT $2
        ) AS m
        ORDER BY m.key
        """
    }
}
