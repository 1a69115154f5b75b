import SwipeStore

/// The PostgreSQL feed's SQL (README "Discovery"), the twin of SQLite's
/// `DiscoverySQL`: the same two-way test, written in PostgreSQL's dialect,
/// in one place so tests can hold the plans (`EXPLAIN`).
///
/// Every query binds the viewer's side of the test the same way
/// (`PostgresDiscoveryViewer.arguments`); PostgreSQL infers a parameter's
/// type from its first use, so each one is cast where it appears:
///
/// | parameter | value |
/// |---|---|
/// | $1 | the viewer's key |
/// | $2 | the viewer's age |
/// | $3, $4 | the viewer's age_min, age_max |
/// | $5 | the viewer's seeking as a JSON array of gender keys, NULL for everyone |
/// | $6 | the viewer's gender key, NULL when they have none |
/// | $7 | whether the viewer has a location |
/// | $8 | whether the viewer has max_km (and so a box) |
/// | $9, $10 | the box's latitudes |
/// | $11…$14 | the box's one or two longitude ranges |
/// | $15, $16 | the latitude and longitude of the centre of the viewer's cell (NULL without a place) |
/// | $17 | the viewer's max_km, NULL for no limit |
/// | $18… | per query: the cursor, how many, the cells, the kind of like, the candidates |
///
/// Unlike SQLite, PostgreSQL has the trigonometry to prefilter by distance
/// in the query: a haversine there from the centre of the viewer's cell,
/// widened by `Discovery.coarseSlackKm` (a constant, not a value), a
/// relative 1e-9 and 1 mm, keeps most rows the test in Swift
/// (`Discovery.withinDistance` on the coarse distance, the same arithmetic
/// as SQLite's feed) would reject from being sent at all, and can never
/// drop one it would keep. Each query returns at most `$n` rows, in
/// order, so a fetch reads only as far as it needs.
enum PostgresDiscoverySQL {
    /// The profile columns every feed query returns (as `PostgresProfileRow`
    /// reads them), after `p.key`.
    static let columns = """
        p.key, p.id, p.name, p.age, p.gender, p.city, p.bio, p.photos, p.interests, \
        p.lat, p.lon, p.seeking, p.age_min, p.age_max, p.max_km
        """

    /// How much farther than the tighter max_km, km, a place the coarse
    /// distance keeps can be from the centre of the viewer's cell
    /// (`Discovery.coarseSlackKm`): a constant of the code, never a value.
    static let coarseSlack = String(Discovery.coarseSlackKm)

    /// The moment the statement runs, as stored times are written: a
    /// suspension stands while its end is later (Documentation/Moderation.md).
    static let now = SQLDialect.postgresql.now

    /// Candidate `p` against the viewer, both ways. `lower` folds ASCII only
    /// under the "C" collation, as SQLite's and `Discovery.genderKey` do.
    static let eligible = """
        p.key <> $1::bigint
          AND p.age BETWEEN $3::integer AND $4::integer
          AND $2::integer BETWEEN p.age_min AND p.age_max
          AND ($5::text IS NULL
               OR lower(btrim(p.gender, E' \\t\\n\\r') COLLATE "C")
                  = ANY (ARRAY(SELECT json_array_elements_text($5::text::json))))
          AND (p.seeking IS NULL OR strpos(';' || p.seeking || ';', ';' || $6::text || ';') > 0)
          AND (p.max_km IS NULL OR ($7::boolean AND p.lat IS NOT NULL))
          AND (NOT $8::boolean OR (p.lat BETWEEN $9::float8 AND $10::float8
                                   AND (p.lon BETWEEN $11::float8 AND $12::float8
                                        OR p.lon BETWEEN $13::float8 AND $14::float8)))
          AND (($17::float8 IS NULL AND p.max_km IS NULL)
               OR 2 * 6371.0088 * asin(least(1, sqrt(
                      sin(radians(p.lat - $15::float8) / 2) ^ 2
                      + cos(radians($15::float8)) * cos(radians(p.lat)) * sin(radians(p.lon - $16::float8) / 2) ^ 2)))
                  <= (least(coalesce($17::float8, 'Infinity'), coalesce(p.max_km, 'Infinity')) + \(coarseSlack))
                     * (1 + 1e-9) + 1e-6)
          AND NOT EXISTS (SELECT 1 FROM decisions AS d
                          WHERE d.viewer = $1::bigint AND d.profile = p.key AND d.undone_at IS NULL OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = $1::bigint AND b.blocked = p.key OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = p.key AND b.blocked = $1::bigint OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM suspensions AS sus
                          WHERE sus.profile = p.key AND (sus.ends_at IS NULL OR sus.ends_at > \(now))
                          OFFSET 0)
        """

    /// `eligible` as the walks write it, so that the plan PostgreSQL keeps
    /// for a prepared statement (a generic plan, made without the values)
    /// walks an index in key order and stops at the rows it needs:
    ///
    /// - `OFFSET 0` keeps each `NOT EXISTS` a probe per candidate (one
    ///   descent of `decisions_standing` or a block index); pulled up into an
    ///   anti-join, it read the viewer's whole history for each candidate, or
    ///   sorted the cell's every row.
    /// - Inside `CASE` the test is opaque to the planner's estimates. Seen
    ///   through, its dozen parameter comparisons multiply to a selectivity
    ///   near zero, for which reading a cell's every row by bitmap and sorting
    ///   them looks cheaper than an ordered walk that stops early (measured:
    ///   400 ms against 1 ms for the densest city's first cards at 100k).
    static let eligibleWalk = "(CASE WHEN \(eligible) THEN true ELSE false END)"

    /// The eligible holders of a standing like ($18 = 'like') or superlike of
    /// the viewer after the position ($19 decided_at, $20 decision key) of
    /// `liker_cursors`, oldest first, at most $21: one range of
    /// `decisions_likers_key`. Returns each like's position after the columns.
    static let likers = """
        SELECT \(columns), l.decided_at, l.key
        FROM decisions AS l JOIN profiles AS p ON p.key = l.viewer
        WHERE l.profile = $1::bigint AND l.decision = $18::text AND l.undone_at IS NULL
          AND (l.decided_at, l.key) > ($19::text, $20::bigint)
          AND \(eligibleWalk)
        ORDER BY l.decided_at, l.key
        LIMIT $21::bigint
        """

    /// The last standing like of the viewer $1 of the kind $2 before the
    /// position ($3 decided_at, $4 decision key): where the likers' cursor
    /// moves when every like before the first eligible one was passed over.
    /// Returns (profile, decision, decided_at, key): the row comparison on
    /// all four columns of `decisions_likers_key` reads one index entry
    /// backwards (an index on the profile alone cannot answer it), and the
    /// caller checks the row is the viewer's and of the kind.
    static let lastLikeBefore = """
        SELECT l.profile, l.decision, l.decided_at, l.key FROM decisions AS l
        WHERE l.undone_at IS NULL AND (l.profile, l.decision, l.decided_at, l.key) < ($1::bigint, $2::text, $3::text, $4::bigint)
        ORDER BY l.profile DESC, l.decision DESC, l.decided_at DESC, l.key DESC
        LIMIT 1
        """

    /// The ranking's columns (`rank_stats` as `r`), after `columns` (15…22),
    /// then `rank_fit`'s (as `rf`), as SQLite's `DiscoverySQL.stats`.
    static let stats = """
        r.given, r.given_likes, r.received, r.received_likes, r.last_active_at, r.dealt_since, r.dealt, r.dealt_total,
        rf.appeal, rf.generosity
        """

    /// The candidate's `rank_stats` row as `r` and `rank_fit` row as `rf` (NULLs without them): lateral
    /// probe of its primary key per candidate, so the walks stay ordered index
    /// walks that stop early (a plain LEFT JOIN may be planned as a hash join
    /// over the whole table).
    static let statsJoin = """
        LEFT JOIN LATERAL (SELECT * FROM rank_stats AS r0 WHERE r0.profile = p.key LIMIT 1) AS r ON true
        LEFT JOIN LATERAL (SELECT * FROM rank_fit AS rf0 WHERE rf0.profile = p.key LIMIT 1) AS rf ON true
        """

    /// The eligible among the $18 most recently active profiles (one bounded
    /// range of `rank_stats_active`, newest first, ties by key from the
    /// highest), as SQLite's `DiscoverySQL.recentlyActive`.
    static let recentlyActive = """
        SELECT \(columns), \(stats)
        FROM (SELECT a.profile FROM rank_stats AS a WHERE a.last_active_at IS NOT NULL
              ORDER BY a.last_active_at DESC, a.profile DESC LIMIT $18::bigint) AS recent
        JOIN profiles AS p ON p.key = recent.profile
        \(statsJoin)
        WHERE \(eligibleWalk)
        """

    /// The market sample of `Ranking.Prior.market`: the $1 most recently
    /// active profiles (one range of `rank_stats_active`), their gender and
    /// decisions given and received with the likes among them.
    ///
    /// The counts come with the range's own rows and the gender by a lateral
    /// probe of each key (its `LIMIT 1` keeps the planner from flattening it
    /// into a hash of `profiles`): joined to `rank_stats` a second time, the generic
    /// plan hashed the whole table (a sequential scan of 208k rows, 25 ms at
    /// 1M, most of a new feed's refill) for the 1,000 rows it needed (1 ms).
    static let marketSample = """
        SELECT recent.profile, p.gender, recent.given, recent.given_likes, recent.received, recent.received_likes
        FROM (SELECT a.profile, a.given, a.given_likes, a.received, a.received_likes FROM rank_stats AS a
              WHERE a.last_active_at IS NOT NULL
              ORDER BY a.last_active_at DESC, a.profile DESC LIMIT $1::bigint) AS recent
        CROSS JOIN LATERAL (SELECT p0.gender FROM profiles AS p0 WHERE p0.key = recent.profile LIMIT 1) AS p
        """

    /// For each key of the JSON array $1, in order, and each kind of the
    /// JSON array $2, in order: the latest $3 standing decisions of that
    /// kind made by the key (the other side, newest first, ties by key
    /// descending), as SQLite's `DiscoverySQL.givenLatest` reads them one
    /// key and kind at a time; each a backward range of `decisions_quota`.
    static let givenLatest = """
        SELECT k.key::bigint, t.kind, d.other
        FROM json_array_elements_text($1::text::json) WITH ORDINALITY AS k(key, i)
        CROSS JOIN json_array_elements_text($2::text::json) WITH ORDINALITY AS t(kind, j)
        CROSS JOIN LATERAL (
            SELECT profile AS other, decided_at FROM decisions
            WHERE viewer = k.key::bigint AND decision = t.kind AND undone_at IS NULL
            ORDER BY decided_at DESC, profile DESC LIMIT $3::bigint
        ) AS d
        ORDER BY k.i, t.j, d.decided_at DESC, d.other DESC
        """

    /// The same about each key (the deciders): each a backward range of `decisions_likers`.
    static let receivedLatest = """
        SELECT k.key::bigint, t.kind, d.other
        FROM json_array_elements_text($1::text::json) WITH ORDINALITY AS k(key, i)
        CROSS JOIN json_array_elements_text($2::text::json) WITH ORDINALITY AS t(kind, j)
        CROSS JOIN LATERAL (
            SELECT viewer AS other, decided_at FROM decisions
            WHERE profile = k.key::bigint AND decision = t.kind AND undone_at IS NULL
            ORDER BY decided_at DESC, viewer DESC LIMIT $3::bigint
        ) AS d
        ORDER BY k.i, t.j, d.decided_at DESC, d.other DESC
        """

    /// Stamps the viewer $1 active at $2 (opening a feed is an act).
    static let stampActive = """
        INSERT INTO rank_stats AS r (profile, last_active_at) VALUES ($1::bigint, $2::text)
        ON CONFLICT (profile) DO UPDATE SET last_active_at = greatest(coalesce(r.last_active_at, ''), excluded.last_active_at)
        """

    /// Counts the impressions dealt since the last count ($1: the dealt keys
    /// as a JSON array, a key once per time dealt; $2 now, $3 24 hours
    /// before), as SQLite's feed does: one row per profile, so a profile
    /// dealt twice is counted twice (ON CONFLICT may touch a row only once).
    static let dealt = """
        INSERT INTO rank_stats AS r (profile, dealt_since, dealt, dealt_total)
        SELECT k::bigint, $2::text, count(*), count(*) FROM json_array_elements_text($1::text::json) AS k
        GROUP BY k ORDER BY k::bigint
        ON CONFLICT (profile) DO UPDATE SET
            dealt = CASE WHEN r.dealt_since IS NULL OR r.dealt_since <= $3::text THEN excluded.dealt ELSE r.dealt + excluded.dealt END,
            dealt_since = CASE WHEN r.dealt_since IS NULL OR r.dealt_since <= $3::text THEN $2::text ELSE r.dealt_since END,
            dealt_total = r.dealt_total + excluded.dealt_total
        """

    /// Before the impressions count, in its transaction: a row lock held by
    /// a decision in progress fails the count within 20 ms (55P03) instead
    /// of holding the decision up until the deadlock check. A function, not
    /// `SET LOCAL`, so that it holds in the implicit transaction of a flight.
    static let countWaitsBriefly = "SELECT set_config('lock_timeout', '20ms', true)"

    /// The candidate $18 alone (a queued card of the feed's batch), when it
    /// is eligible now: one lookup by `profiles_pkey`.
    static let one = """
        SELECT \(columns)
        FROM profiles AS p
        WHERE p.key = $18::bigint AND \(eligible)
        """

    /// Everyone after the cursor $18 in key order, at most $19, walking the
    /// profiles' primary key: for a viewer without a box, or one whose box
    /// covers many cells.
    static let byKey = """
        SELECT \(columns), \(stats)
        FROM profiles AS p \(statsJoin)
        WHERE p.key > $18::bigint AND \(eligibleWalk)
        ORDER BY p.key
        LIMIT $19::bigint
        """

    /// A profile's place cell, exactly as the index `profiles_cell_key` computes it.
    static let cell = "(floor(p.lat + 90)::integer * 1000 + floor(p.lon + 180)::integer)"

    /// One cell's walk of `inCells`: the eligible after the cursor $18 in
    /// the cell `$n` (`cellParameter`, replaced by `inCells`), in key order,
    /// at most $19: one range of `profiles_cell_key` (cell, key), read only
    /// as far as the merge above it asks.
    static let inCellsBranch = """
        (SELECT \(columns)
         FROM profiles AS p
         WHERE p.lat IS NOT NULL AND \(cell) = cellParameter::integer AND p.key > $18::bigint AND \(eligibleWalk)
         ORDER BY p.key
         LIMIT $19::bigint)
        """

    /// What `inCells` replaces in each `inCellsBranch` with that cell's parameter.
    static let cellParameter = "cellParameter"

    /// Everyone after the cursor $18 in the `count` cells $20, $21, … (one
    /// integer each), in key order, at most $19: the cells' ordered walks
    /// (`inCellsBranch`, each one range of `profiles_cell_key`) merged by
    /// key as they are read (a Merge Append under the LIMIT), as SQLite's
    /// feed merges its cell statements: the walk reads only as many rows as
    /// the first $19 eligible of all cells need, not $19 eligible of each
    /// cell. Each branch's own LIMIT keeps the generic plan an ordered index
    /// walk that stops early (without it the planner, misjudging a dense
    /// cell as a few hundred rows, reads each cell by bitmap and sorts it:
    /// measured 470 ms against 1.4 ms for the densest city at 1M). The
    /// ranking's columns are read for the merged rows only. The text
    /// differs by the number of cells (1…`Discovery.cells`' limit), each
    /// prepared once per session.
    static func inCells(count: Int) -> String {
        precondition(count > 0, "a walk by cells needs a cell")
        let branches = (0..<count).map {
            inCellsBranch.replacingOccurrences(of: cellParameter, with: "$" + String(20 + $0))
        }
        let union: String = branches.joined(separator: "\nUNION ALL\n")
        // The merged rows are named `p`, as a walk's are, so `statsJoin` joins them too.
        let head: String = "SELECT p.*, " + stats + "\nFROM (SELECT * FROM (\n" + union
        let tail: String = "\n) AS cells ORDER BY cells.key LIMIT $19::bigint) AS p\n" + statsJoin
        return head + tail + "\nORDER BY p.key"
    }

    /// Those of the candidates $18 (a JSON array of external ids) the viewer
    /// may be shown, but for the exact distance.
    static let among = """
        SELECT \(columns)
        FROM profiles AS p
        WHERE p.id IN (SELECT json_array_elements_text($18::text::json)) AND \(eligible)
        """

    /// The viewer's row: key and profile.
    static let viewer = "SELECT \(columns) FROM profiles AS p WHERE p.id = $1::text"

    /// The viewer's row and where their feed stands, in one round trip:
    /// after the profile, the feed's cursor (NULL: none), then per kind
    /// (superlike, like) the likers' cursor (two columns, NULL: none) and
    /// whether a standing like of that kind lies beyond it (the next entry of
    /// `decisions_likers_key` after it, read in one step, is one); then the
    /// largest profile key (what a walk that finds nobody has passed).
    static let feedState = """
        \(feedStateOf)
        WHERE p.id = $1::text
        """

    /// `feedState`'s columns and tables, without the viewer's row chosen.
    static let feedStateOf = """
        SELECT \(columns),
               (SELECT f.after_key FROM feed_cursors AS f WHERE f.viewer = p.key),
               s.after_at, s.after_key,
               coalesce((SELECT l.profile = p.key AND l.decision = 'superlike' FROM decisions AS l
                         WHERE l.undone_at IS NULL AND (l.profile, l.decision, l.decided_at, l.key)
                               > (p.key, 'superlike', coalesce(s.after_at, ''), coalesce(s.after_key, 0))
                         ORDER BY l.profile, l.decision, l.decided_at, l.key LIMIT 1), false),
               k.after_at, k.after_key,
               coalesce((SELECT l.profile = p.key AND l.decision = 'like' FROM decisions AS l
                         WHERE l.undone_at IS NULL AND (l.profile, l.decision, l.decided_at, l.key)
                               > (p.key, 'like', coalesce(k.after_at, ''), coalesce(k.after_key, 0))
                         ORDER BY l.profile, l.decision, l.decided_at, l.key LIMIT 1), false),
               (SELECT max(m.key) FROM profiles AS m)
        FROM profiles AS p
        LEFT JOIN liker_cursors AS s ON s.viewer = p.key AND s.decision = 'superlike'
        LEFT JOIN liker_cursors AS k ON k.viewer = p.key AND k.decision = 'like'
        """

    /// One round trip for a card dealt from the batch: `feedState` for the
    /// viewer with the key $1 (its columns, then `part` 0), and the queued
    /// candidate $18 (its columns, NULLs, then `part` 1) when it is eligible
    /// for the viewer $1…$17 as the batch was ranked for them. The caller
    /// uses the check only when the viewer read is the one ranked for (then
    /// it is the check `one` makes, with the same values). One statement:
    /// the state and the check see the same snapshot.
    static let feedStateAndNext = """
        SELECT state.*, 0 AS part FROM (
            \(feedStateOf)
            WHERE p.key = $1::bigint
        ) AS state
        UNION ALL
        SELECT \(columns), NULL::bigint, NULL::text, NULL::bigint, NULL::boolean, NULL::text, NULL::bigint,
               NULL::boolean, NULL::bigint, 1
        FROM profiles AS p
        WHERE p.key = $18::bigint AND \(eligible)
        """

    /// The last standing like of the viewer $1 of the kind $2, as
    /// `lastLikeBefore` returns it: where the likers' cursor moves when none
    /// of them is eligible.
    static let lastLike = """
        SELECT l.profile, l.decision, l.decided_at, l.key FROM decisions AS l
        WHERE l.undone_at IS NULL AND (l.profile, l.decision) <= ($1::bigint, $2::text)
        ORDER BY l.profile DESC, l.decision DESC, l.decided_at DESC, l.key DESC
        LIMIT 1
        """

    /// Moves (or sets) the feed's cursor $2 of the viewer $1.
    static let saveCursor = """
        INSERT INTO feed_cursors (viewer, after_key) VALUES ($1::bigint, $2::bigint)
        ON CONFLICT (viewer) DO UPDATE SET after_key = excluded.after_key
        """

    /// Moves (or sets) the likers' cursor of the viewer $1 for the kind $2 to ($3, $4).
    static let saveLikerCursor = """
        INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES ($1::bigint, $2::text, $3::text, $4::bigint)
        ON CONFLICT (viewer, decision) DO UPDATE SET after_at = excluded.after_at, after_key = excluded.after_key
        """
}
