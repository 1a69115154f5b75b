/// A small history written straight into the tables of a version-6 database
/// (either backend: the same SQL), and what the analysts' views (version 7,
/// Documentation/Insights.md) must show of it, worked out by hand from the
/// rows below, not read from either database.
public enum AnalystViewsSample {
    /// Four people. a liked b in an import; b superliked a back (the match,
    /// at the later of the two); a hated c and took it back; a and d matched
    /// and unmatched without a word; b wrote first, twice, and a answered.
    public static let inserts = """
        INSERT INTO profiles (key, id, name, age) VALUES (1, 'a', 'Ana', 30), (2, 'b', 'Bo', 41), (3, 'c', 'Cy', 25),
            (4, 'd', 'Di', 33);
        INSERT INTO decisions (key, viewer, profile, decision, via, decided_at, undone_at) VALUES
            (1, 1, 2, 'like', 'import', '2026-11-19T09:00:00.000Z', NULL),
            (2, 2, 1, 'superlike', 'drag', '2026-11-20T10:00:00.000Z', NULL),
            (3, 1, 3, 'hate', 'button', '2026-11-20T11:00:00.000Z', '2026-11-20T11:00:05.000Z'),
            (4, 1, 4, 'like', 'detail', '2026-11-20T23:59:59.999Z', NULL),
            (5, 4, 1, 'like', 'drag', '2026-11-21T00:00:00.000Z', NULL);
        INSERT INTO matches (low, high, matched_at, unmatched_at) VALUES (1, 2, '2026-11-20T10:00:00.000Z', NULL),
            (1, 4, '2026-11-21T00:00:00.000Z', '2026-11-22T08:00:00.000Z');
        INSERT INTO messages (key, low, high, seq, sender, recipient, client_id, body, sent_at) VALUES
            (1, 1, 2, 1, 2, 1, 'b1', 'hi', '2026-11-20T12:00:00.000Z'),
            (2, 1, 2, 2, 2, 1, 'b2', 'there', '2026-11-20T12:30:00.000Z'),
            (3, 1, 2, 3, 1, 2, 'a1', 'hello', '2026-11-21T13:00:00.000Z');
        """

    /// Every column of decision_log, as text joined by `|` (`-` for NULL), in time order.
    public static let decisionLogSQL = """
        SELECT viewer_id || '|' || target_id || '|' || decision || '|' || decided_at || '|' || decided_day || '|'
               || via || '|' || CAST(imported AS TEXT) || '|' || CAST(undone AS TEXT) || '|' || coalesce(undone_at, '-')
        FROM decision_log ORDER BY decided_at
        """

    public static let decisionLog = [
        "a|b|like|2026-11-19T09:00:00.000Z|2026-11-19|import|1|0|-",
        "b|a|superlike|2026-11-20T10:00:00.000Z|2026-11-20|drag|0|0|-",
        "a|c|hate|2026-11-20T11:00:00.000Z|2026-11-20|button|0|1|2026-11-20T11:00:05.000Z",
        "a|d|like|2026-11-20T23:59:59.999Z|2026-11-20|detail|0|0|-",
        "d|a|like|2026-11-21T00:00:00.000Z|2026-11-21|drag|0|0|-",
    ]

    /// Every column of match_history, as text joined by `|` (`-` for NULL), in time order.
    public static let matchHistorySQL = """
        SELECT person_a_id || '|' || person_b_id || '|' || matched_at || '|' || matched_day || '|'
               || coalesce(ended_at, '-') || '|' || coalesce(expires_at, '-') || '|' || coalesce(first_message_at, '-')
               || '|' || coalesce(first_sender_id, '-') || '|' || CAST(replied AS TEXT) || '|'
               || coalesce(last_message_at, '-') || '|' || CAST(messages AS TEXT)
        FROM match_history ORDER BY matched_at
        """

    public static let matchHistory = [
        "a|b|2026-11-20T10:00:00.000Z|2026-11-20|-|-|2026-11-20T12:00:00.000Z|b|1|2026-11-21T13:00:00.000Z|3",
        "a|d|2026-11-21T00:00:00.000Z|2026-11-21|2026-11-22T08:00:00.000Z|-|-|-|0|-|0",
    ]

    /// The views' columns, in order, as Documentation/Insights.md lists them.
    public static let decisionLogColumns = [
        "viewer_id", "target_id", "decision", "decided_at", "decided_day", "via", "imported", "undone", "undone_at",
    ]
    public static let matchHistoryColumns = [
        "person_a_id", "person_b_id", "matched_at", "matched_day", "ended_at", "expires_at", "first_message_at",
        "first_sender_id", "replied", "last_message_at", "messages",
    ]
}
