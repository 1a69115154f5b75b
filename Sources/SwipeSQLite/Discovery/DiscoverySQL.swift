import SwipeCSV
import SwipeStore

/// The feed's SQL (README "Discovery"), in one place so the plans can be held
/// by tests (`EXPLAIN QUERY PLAN`) and a second backend can mirror them.
///
/// Every query binds the viewer's side of the two-way test the same way:
///
/// | parameter | value |
/// |---|---|
/// | ?1 | the viewer's key |
/// | ?2 | the viewer's age |
/// | ?3, ?4 | the viewer's age_min, age_max |
/// | ?5 | the viewer's seeking as a JSON array of gender keys, NULL for everyone |
/// | ?6 | the viewer's gender key, NULL when they have none |
/// | ?7 | 1 when the viewer has a location |
/// | ?8 | 1 when the viewer has max_km (and so a box) |
/// | ?9, ?10 | the box's latitudes |
/// | ?11…?14 | the box's one or two longitude ranges |
/// | ?15 | per query: the cursor, the kind of like, or the candidate |
/// | ?16 | `inCell` only: the cell |
///
/// The exact distance (haversine) is checked in Swift on the rows these
/// return, which are read one at a time and only as far as needed: the box
/// and every other test run first, in SQL, by index.
enum DiscoverySQL {
    /// The profile columns every feed query returns, after `p.key`.
    static let columns =
        "p.key, "
        + SQLiteStore.profileColumns.split(separator: ",").map { "p." + String($0).trimmed() }
        .joined(separator: ", ")

    /// Candidate `p` against the viewer, both ways, except the exact
    /// distance; never anyone suspended (Documentation/Moderation.md).
    static let eligible = """
        p.key <> ?1
          AND p.age BETWEEN ?3 AND ?4
          AND ?2 BETWEEN p.age_min AND p.age_max
          AND (?5 IS NULL OR lower(trim(p.gender, ' ' || char(9, 10, 13))) IN (SELECT value FROM json_each(?5)))
          AND (p.seeking IS NULL OR instr(';' || p.seeking || ';', ';' || ?6 || ';') > 0)
          AND (p.max_km IS NULL OR (?7 = 1 AND p.lat IS NOT NULL))
          AND (?8 = 0 OR (p.lat BETWEEN ?9 AND ?10 AND (p.lon BETWEEN ?11 AND ?12 OR p.lon BETWEEN ?13 AND ?14)))
          AND NOT EXISTS (SELECT 1 FROM decisions AS d
                          WHERE d.viewer = ?1 AND d.profile = p.key AND d.undone_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = ?1 AND b.blocked = p.key)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = p.key AND b.blocked = ?1)
          AND \(SQLiteStore.notSuspended("p.key", .sqlite))
        """

    /// Those holding a standing like (?15 = 'like') or superlike of the
    /// viewer, oldest first, after the position (?16 decided_at, ?17 key) of
    /// `liker_cursors`: one range of `decisions_likers`. Also returns each
    /// like's position, and every like in the range, eligible or not (`ok`
    /// says which), so the cursor can pass the rejected ones.
    static let likers = """
        SELECT \(columns), l.decided_at, l.key,
               (\(eligible)) AS ok
        FROM decisions AS l CROSS JOIN profiles AS p ON p.key = l.viewer
        WHERE l.profile = ?1 AND l.decision = ?15 AND l.undone_at IS NULL
          AND (l.decided_at, l.key) > (?16, ?17)
        ORDER BY l.decided_at, l.key
        """

    /// The ranking's columns (`rank_stats` as `r`, joined on the key), after
    /// `columns`: given, given_likes, received, received_likes,
    /// last_active_at, dealt_since, dealt, dealt_total (columns 15…22), and
    /// from `rank_fit` as `rf`: appeal, generosity.
    static let stats = """
        r.given, r.given_likes, r.received, r.received_likes, r.last_active_at, r.dealt_since, r.dealt, r.dealt_total,
        rf.appeal, rf.generosity
        """

    /// The candidate's `rank_stats` row as `r` and its `rank_fit` row as `rf`
    /// (NULLs without them), each a lookup by key.
    static let statsJoin =
        "LEFT JOIN rank_stats AS r ON r.profile = p.key LEFT JOIN rank_fit AS rf ON rf.profile = p.key"

    /// Everyone after the cursor ?15 in key order, walking the profiles'
    /// primary key: for a viewer without a box, or one whose box holds many.
    static let byKey = """
        SELECT \(columns), \(stats)
        FROM profiles AS p \(statsJoin)
        WHERE p.key > ?15 AND \(eligible)
        ORDER BY p.key
        """

    /// The eligible among the ?15 most recently active profiles (one bounded
    /// range of `rank_stats_active`, newest first, each a lookup by key):
    /// the ranking's second source, so that those who use the app reach the
    /// window wherever their key lies.
    static let recentlyActive = """
        SELECT \(columns), \(stats)
        FROM (SELECT a.profile FROM rank_stats AS a WHERE a.last_active_at IS NOT NULL
              ORDER BY a.last_active_at DESC, a.profile DESC LIMIT ?15) AS recent
        CROSS JOIN profiles AS p ON p.key = recent.profile
        \(statsJoin)
        WHERE \(eligible)
        """

    /// The market sample of `Ranking.Prior.market`: the ?1 most recently
    /// active profiles (one range of `rank_stats_active`), their gender and
    /// decisions given and received with the likes among them.
    static let marketSample = """
        SELECT r.profile, p.gender, r.given, r.given_likes, r.received, r.received_likes
        FROM (SELECT a.profile FROM rank_stats AS a WHERE a.last_active_at IS NOT NULL
              ORDER BY a.last_active_at DESC, a.profile DESC LIMIT ?1) AS recent
        CROSS JOIN profiles AS p ON p.key = recent.profile
        JOIN rank_stats AS r ON r.profile = recent.profile
        """

    /// The latest ?3 standing decisions of kind ?2 made by ?1 (the other
    /// side, newest first, ties by key descending): one backward range of
    /// `decisions_quota` (viewer, decision, decided_at).
    static let givenLatest = """
        SELECT profile FROM decisions WHERE viewer = ?1 AND decision = ?2 AND undone_at IS NULL
        ORDER BY decided_at DESC, profile DESC LIMIT ?3
        """

    /// The latest ?3 standing decisions of kind ?2 made about ?1 (the
    /// deciders): one backward range of `decisions_likers` (profile, decision, decided_at).
    static let receivedLatest = """
        SELECT viewer FROM decisions WHERE profile = ?1 AND decision = ?2 AND undone_at IS NULL
        ORDER BY decided_at DESC, viewer DESC LIMIT ?3
        """

    /// A profile's place cell, exactly as the index `profiles_cell` computes it.
    static let cell = "CAST(p.lat + 90 AS INTEGER) * 1000 + CAST(p.lon + 180 AS INTEGER)"

    /// Everyone after the cursor ?15 in the cell ?16, in key order: one
    /// range of `profiles_cell` (cell, key). `SQLiteFeed` merges the few
    /// cells that cover the viewer's box as it reads them.
    static let inCell = """
        SELECT \(columns), \(stats)
        FROM profiles AS p \(statsJoin)
        WHERE p.lat IS NOT NULL AND \(cell) = ?16 AND p.key > ?15 AND \(eligible)
        ORDER BY p.key
        """

    /// The candidate ?15 alone, when eligible but for the distance.
    static let one = """
        SELECT \(columns)
        FROM profiles AS p
        WHERE p.key = ?15 AND \(eligible)
        """
}
