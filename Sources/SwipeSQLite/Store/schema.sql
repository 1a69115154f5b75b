-- swipe database schema, version 8 (the ranking's fit: rank_fit and
-- rank_fit_mean; version 7 was views for analysts: decision_log and
-- match_history; version 6 was moderation: moderators, suspensions,
-- warnings, flags and the append-only moderation log; version 5 was photos:
-- the bytes of the photos swipe stores itself; version 4 was conversations: messages, and a match's
-- deadline for its first message; version 3 was ranking: per-profile counters,
-- activity and exposure in rank_stats, kept by triggers on decisions; version 2
-- was discovery: preferences, places, blocks, reports, unmatch).
--
-- This file is the one place the schema is written: `sqlite3 new.db < schema.sql`
-- makes a working database, and the binary embeds this exact text (it lives in
-- Sources/SwipeSQLite/Store/, which SwiftPM embeds with `.embedInCode`; the
-- top-level schema.sql links to it). Later versions add forward-only migration
-- steps in Sources/SwipeSQLite/Store/Schema.swift and bump user_version here.
PRAGMA user_version = 8;
-- Marks the file as swipe's ("SWIP", 0x53574950): swipe refuses any SQLite
-- file without it (or the legacy form: 0 here, user_version 1, these tables).
PRAGMA application_id = 1398229328;

-- People in the deck. `key` is the internal integer key (the rowid, the feed's
-- order); `id` is the stable external id from the CSV. Photos and interests are
-- JSON arrays of strings: they are only ever read and written whole, in order,
-- with the profile, so child tables would buy joins and nothing else. `photos`
-- is the profile's one list of photos, in the order shown: each item an
-- https:// URL or `/photos/ID`, a photo stored in the table photos (version 5).
CREATE TABLE profiles (
    key       INTEGER PRIMARY KEY,
    id        TEXT NOT NULL UNIQUE CHECK (length(id) > 0),
    name      TEXT NOT NULL CHECK (length(name) > 0),
    age       INTEGER NOT NULL CHECK (age BETWEEN 18 AND 120),
    gender    TEXT,
    city      TEXT,
    bio       TEXT,
    photos    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(photos) AND json_type(photos) = 'array'),
    interests TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(interests) AND json_type(interests) = 'array'),
    -- Discovery (README "Discovery"). Written here in the order, and with the
    -- CHECKs, that the version-2 migration's ALTER TABLE ADD COLUMNs give.
    -- Location in WGS84 degrees: both or neither.
    lat       REAL CHECK (lat IS NULL OR (lat BETWEEN -90 AND 90)),
    lon       REAL CHECK ((lon IS NULL) = (lat IS NULL) AND (lon IS NULL OR (lon BETWEEN -180 AND 180))),
    -- The genders this profile wants to see: trimmed, lower-cased (ASCII),
    -- ';'-separated, no empty item; NULL is everyone.
    seeking   TEXT CHECK (seeking IS NULL OR (length(seeking) > 0 AND seeking NOT GLOB '*;;*'
                                               AND seeking NOT GLOB ';*' AND seeking NOT GLOB '*;')),
    age_min   INTEGER NOT NULL DEFAULT 18 CHECK (age_min BETWEEN 18 AND 120),
    age_max   INTEGER NOT NULL DEFAULT 120 CHECK (age_max BETWEEN 18 AND 120 AND age_max >= age_min),
    -- The farthest this profile wants to see, km; NULL is no limit.
    max_km    REAL CHECK (max_km IS NULL OR max_km > 0)
);

-- Where profiles are, for the feed's distance search: the 1-degree cell of
-- each located profile (latitude band times 1000 plus longitude band), then its
-- key. A viewer's distance box is a few cells, so a small town's candidates are
-- a few ranges of this index. CAST truncates, which is floor here (both sums
-- are never negative); DiscoverySQL writes the same expression.
CREATE INDEX profiles_cell ON profiles (CAST(lat + 90 AS INTEGER) * 1000 + CAST(lon + 180 AS INTEGER))
    WHERE lat IS NOT NULL;

-- Every decision ever made. Undo keeps the row and stamps undone_at, so history
-- loses nothing. Times are UTC ISO-8601 with milliseconds, which sort as text.
CREATE TABLE decisions (
    key        INTEGER PRIMARY KEY,
    viewer     INTEGER NOT NULL REFERENCES profiles(key),
    profile    INTEGER NOT NULL REFERENCES profiles(key),
    decision   TEXT NOT NULL CHECK (decision IN ('like', 'hate', 'superlike')),
    via        TEXT NOT NULL CHECK (via IN ('drag', 'button', 'detail', 'import')),
    decided_at TEXT NOT NULL CHECK (decided_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    undone_at  TEXT CHECK (undone_at IS NULL OR undone_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    CHECK (viewer <> profile)
);

-- At most one standing (un-undone) decision per viewer and profile, enforced by
-- the database. It is also the feed's index: "has this viewer decided this
-- profile?" is one SEARCH on (viewer, profile).
CREATE UNIQUE INDEX decisions_standing ON decisions (viewer, profile) WHERE undone_at IS NULL;

-- "Who decided about me": the other side of a match, and missed matches.
CREATE INDEX decisions_received ON decisions (profile, viewer) WHERE undone_at IS NULL;

-- A viewer's history in time order.
CREATE INDEX decisions_history ON decisions (viewer, decided_at, decision, undone_at);

-- The daily quotas: a viewer's decisions of one kind in time order. "Is the
-- viewer over N a day?" is "is the N-th newest standing one less than 24
-- hours old?": one descent and N steps back (plus any undone in between),
-- however many the window holds, where a count steps every one of them. It
-- holds undone_at rather than leaving undone rows out (WHERE undone_at IS
-- NULL) so that it covers the query and the planner picks it unasked.
CREATE INDEX decisions_quota ON decisions (viewer, decision, decided_at, undone_at);

-- Who likes me, superlikes and likes each oldest first: the feed deals them
-- before everyone else, and `swipe likes` lists them.
CREATE INDEX decisions_likers ON decisions (profile, decision, decided_at) WHERE undone_at IS NULL;

-- A match exists while both sides hold a standing like or superlike of each
-- other; the ledger writes and deletes rows here in the same transaction as the
-- decision that makes or unmakes them. The pair is stored once, low key first.
-- An unmatch (or a block) stamps unmatched_at instead: the row stays, the pair
-- is no longer listed, and it never matches again. So does an undo once the
-- pair has exchanged a message (the messages keep their match).
-- expires_at (version 4): the deadline for the conversation's first message,
-- stamped when the match is made under rule match-expiry; NULL is none.
CREATE TABLE matches (
    low        INTEGER NOT NULL REFERENCES profiles(key),
    high       INTEGER NOT NULL REFERENCES profiles(key),
    matched_at TEXT NOT NULL,
    unmatched_at TEXT,
    expires_at TEXT,
    PRIMARY KEY (low, high),
    CHECK (low < high)
) WITHOUT ROWID;

CREATE INDEX matches_by_high ON matches (high, low);

-- Missed matches: the viewer passed on (hated) someone whose like or superlike
-- of the viewer still stands.
CREATE VIEW missed_matches AS
SELECT mine.viewer     AS viewer,
       mine.profile    AS profile,
       mine.decided_at AS passed_at,
       theirs.decision AS their_decision,
       theirs.decided_at AS liked_at
FROM decisions AS mine
JOIN decisions AS theirs
  ON theirs.viewer = mine.profile AND theirs.profile = mine.viewer AND theirs.undone_at IS NULL
WHERE mine.undone_at IS NULL
  AND mine.decision = 'hate'
  AND theirs.decision IN ('like', 'superlike');

-- Where a viewer's feed may resume: every profile with key <= after_key is
-- the viewer, decided by the viewer, blocked either way, or not eligible for
-- the viewer (DiscoveryFeed). The feed advances it; whatever can make a
-- passed profile eligible again lowers or drops it (undo, unblock, a change
-- of preferences, an import). It makes the next card cost the same for a
-- viewer with 200k decisions as for a new one.
CREATE TABLE feed_cursors (
    viewer    INTEGER PRIMARY KEY REFERENCES profiles(key),
    after_key INTEGER NOT NULL
);

-- Where a viewer's likers may resume, per kind ('superlike', 'like'): every
-- standing like of that kind on the viewer at or before (after_at, after_key),
-- in the likers' order (decided_at, decision key), is from someone the viewer
-- decided, a block, or someone not eligible. Dropped by whatever can make such
-- a liker eligible again (as feed_cursors), and by a decisions import, whose
-- likes may be older. A viewer who decided 10k likers then pays for none of
-- them per card.
CREATE TABLE liker_cursors (
    viewer    INTEGER NOT NULL REFERENCES profiles(key),
    decision  TEXT NOT NULL CHECK (decision IN ('like', 'superlike')),
    after_at  TEXT NOT NULL,
    after_key INTEGER NOT NULL,
    PRIMARY KEY (viewer, decision)
) WITHOUT ROWID;

-- Blocks, one row per blocker and blocked; unblock deletes it. While a row
-- stands neither side sees, decides about or is listed to the other.
CREATE TABLE blocks (
    blocker    INTEGER NOT NULL REFERENCES profiles(key),
    blocked    INTEGER NOT NULL REFERENCES profiles(key),
    blocked_at TEXT NOT NULL,
    PRIMARY KEY (blocker, blocked),
    CHECK (blocker <> blocked)
) WITHOUT ROWID;

CREATE INDEX blocks_by_blocked ON blocks (blocked, blocker);

-- Reports for moderators; each one also blocks.
CREATE TABLE reports (
    key         INTEGER PRIMARY KEY,
    reporter    INTEGER NOT NULL REFERENCES profiles(key),
    reported    INTEGER NOT NULL REFERENCES profiles(key),
    reason      TEXT NOT NULL CHECK (length(reason) > 0),
    reported_at TEXT NOT NULL
);

-- Small facts about this database, such as the last viewer used with it.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Ranking (README "Ranking"): what the feed's ranking reads about
-- each profile, kept up to date rather than counted from the ledger per card.
-- A profile without a row has decided nothing, received nothing and never
-- acted since it was imported.
--   given, given_likes:       standing decisions this profile made, and how
--                             many of them like or superlike (generosity);
--   received, received_likes: standing decisions about it, and the likes
--                             among them (how it is received);
--   last_active_at:           its last act: a decision or an undo (at its
--                             time, imported ones too), or opening a feed;
--   dealt, dealt_since:       how often feeds dealt it in the 24 hours from
--                             dealt_since (a new window starts when a deal
--                             finds that one over), written once per fetch;
--   dealt_total:              how often feeds ever dealt it.
-- The counters are kept by the triggers below, in the transaction of the
-- decision, so every way of deciding (the REPL, serve, an import) keeps them.
-- The row goes with its profile (ON DELETE CASCADE): it is derived data.
CREATE TABLE rank_stats (
    profile        INTEGER PRIMARY KEY REFERENCES profiles(key) ON DELETE CASCADE,
    given          INTEGER NOT NULL DEFAULT 0 CHECK (given >= 0),
    given_likes    INTEGER NOT NULL DEFAULT 0 CHECK (given_likes BETWEEN 0 AND given),
    received       INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0),
    received_likes INTEGER NOT NULL DEFAULT 0 CHECK (received_likes BETWEEN 0 AND received),
    last_active_at TEXT,
    dealt_since    TEXT,
    dealt          INTEGER NOT NULL DEFAULT 0 CHECK (dealt >= 0),
    dealt_total    INTEGER NOT NULL DEFAULT 0 CHECK (dealt_total >= 0)
);

-- The most recently active first: the ranking's second source of candidates
-- beside the walk by key, so that people who use the app reach every feed.
CREATE INDEX rank_stats_active ON rank_stats (last_active_at) WHERE last_active_at IS NOT NULL;

-- A standing decision counts for both sides; any decision, even one stored
-- already undone (an import of history), is an act of its maker at its time.
CREATE TRIGGER rank_stats_decided AFTER INSERT ON decisions
BEGIN
    INSERT INTO rank_stats (profile, given, given_likes, last_active_at)
    VALUES (NEW.viewer, NEW.undone_at IS NULL, NEW.undone_at IS NULL AND NEW.decision <> 'hate',
            max(NEW.decided_at, coalesce(NEW.undone_at, '')))
    ON CONFLICT (profile) DO UPDATE SET
        given = given + excluded.given, given_likes = given_likes + excluded.given_likes,
        last_active_at = max(coalesce(last_active_at, ''), excluded.last_active_at);
    INSERT INTO rank_stats (profile, received, received_likes)
    VALUES (NEW.profile, NEW.undone_at IS NULL, NEW.undone_at IS NULL AND NEW.decision <> 'hate')
    ON CONFLICT (profile) DO UPDATE SET
        received = received + excluded.received, received_likes = received_likes + excluded.received_likes;
END;

-- An undo takes the decision out of both sides' counts; it is an act too.
CREATE TRIGGER rank_stats_undone AFTER UPDATE OF undone_at ON decisions
WHEN OLD.undone_at IS NULL AND NEW.undone_at IS NOT NULL
BEGIN
    UPDATE rank_stats SET given = given - 1, given_likes = given_likes - (NEW.decision <> 'hate'),
        last_active_at = max(coalesce(last_active_at, ''), NEW.undone_at)
    WHERE profile = NEW.viewer;
    UPDATE rank_stats SET received = received - 1, received_likes = received_likes - (NEW.decision <> 'hate')
    WHERE profile = NEW.profile;
END;

-- Conversations (version 4; Documentation/REPL.md). A match's pair (low, high, as in
-- matches) writes here, one row per message, never changed but for read_at
-- (stamped when the recipient reads it). seq is the store's order within the
-- conversation (1, 2, 3…), given under the pair's lock: each conversation is
-- totally ordered, whoever writes. client_id is the sender's name for the
-- send: a retry with the same one finds this row and never stores a second
-- (exactly once). Every person column (low, high, sender, recipient)
-- references profiles(key), so a walk of the schema finds them all.
CREATE TABLE messages (
    key        INTEGER PRIMARY KEY,
    low        INTEGER NOT NULL REFERENCES profiles(key),
    high       INTEGER NOT NULL REFERENCES profiles(key),
    seq        INTEGER NOT NULL CHECK (seq > 0),
    sender     INTEGER NOT NULL REFERENCES profiles(key),
    recipient  INTEGER NOT NULL REFERENCES profiles(key),
    client_id  TEXT NOT NULL CHECK (length(client_id) BETWEEN 1 AND 128),
    body       TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    sent_at    TEXT NOT NULL CHECK (sent_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    read_at    TEXT CHECK (read_at IS NULL OR read_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    FOREIGN KEY (low, high) REFERENCES matches (low, high),
    CHECK (low < high),
    CHECK ((sender = low AND recipient = high) OR (sender = high AND recipient = low))
);

-- A conversation in the store's order: the next seq, the last N, the newest.
CREATE UNIQUE INDEX messages_order ON messages (low, high, seq);

-- Exactly once: one message per sender and client id.
CREATE UNIQUE INDEX messages_client ON messages (sender, client_id);

-- Unread counts: a recipient's unread messages, per conversation.
CREATE INDEX messages_unread ON messages (recipient, low, high) WHERE read_at IS NULL;

-- Rule first-messages-per-day: a sender's first messages in time order,
-- walked from the newest as decisions_quota is.
CREATE INDEX messages_first ON messages (sender, sent_at) WHERE seq = 1;

-- Photos (version 5; Documentation/Photos.md): the bytes of the photos swipe
-- stores itself. The profile's `photos` list holds their order: an item
-- `/photos/ID` is the row with that id, of that profile (the rules keep the
-- two in step: a row no list names is deleted in the same transaction).
-- id is 32 hex digits of a SHA-256 over a secret of this database, the
-- profile's id and the content, so the path is the same for the same photo
-- of the same person (a re-import changes nothing) and guessed by no one;
-- sha256 is the content's, the ETag. media_type comes from the bytes'
-- signature; byte_size is length(bytes), read without reading the bytes.
-- The row goes with its profile (ON DELETE CASCADE).
CREATE TABLE photos (
    key        INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE CHECK (length(id) = 32 AND id NOT GLOB '*[^0-9a-f]*'),
    profile    INTEGER NOT NULL REFERENCES profiles(key) ON DELETE CASCADE,
    media_type TEXT NOT NULL CHECK (media_type IN ('image/jpeg', 'image/png', 'image/webp')),
    bytes      BLOB NOT NULL CHECK (typeof(bytes) = 'blob' AND length(bytes) BETWEEN 1 AND 5242880),
    sha256     TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    byte_size  INTEGER NOT NULL CHECK (byte_size = length(bytes)),
    created_at TEXT NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z')
);

-- A profile's photos, and its copy of one content (at most one).
CREATE UNIQUE INDEX photos_content ON photos (profile, sha256);

-- Moderation (version 6; Documentation/Moderation.md). Who holds the moderator
-- role; granted_by is the moderator's id, or `operator` (whoever could open
-- the database: `swipe moderate grant`).
CREATE TABLE moderators (
    profile    INTEGER PRIMARY KEY REFERENCES profiles(key),
    granted_at TEXT NOT NULL,
    granted_by TEXT NOT NULL CHECK (length(granted_by) > 0)
);

-- A suspension (`moderate ban`): while it stands (ends_at NULL, for good, or
-- later than now) the person's sign-in links are void, they are never dealt,
-- cannot decide or send, cannot be sent to, and no one's list shows them.
-- `unban` deletes the row; the log keeps that it stood.
CREATE TABLE suspensions (
    profile   INTEGER PRIMARY KEY REFERENCES profiles(key),
    reason    TEXT NOT NULL CHECK (length(reason) > 0),
    banned_at TEXT NOT NULL,
    ends_at   TEXT,
    banned_by TEXT NOT NULL CHECK (length(banned_by) > 0)
);

-- A warning (`moderate warn`), shown to the person at their next session
-- until they acknowledge it.
CREATE TABLE warnings (
    key             INTEGER PRIMARY KEY,
    profile         INTEGER NOT NULL REFERENCES profiles(key),
    reason          TEXT NOT NULL CHECK (length(reason) > 0),
    warned_at       TEXT NOT NULL,
    warned_by       TEXT NOT NULL CHECK (length(warned_by) > 0),
    acknowledged_at TEXT
);

CREATE INDEX warnings_pending ON warnings (profile, key) WHERE acknowledged_at IS NULL;

-- What the store noticed by itself, for the queue: kind `copied-message` is a
-- first message sent word for word to `count` people within an hour (the
-- abuse limits). One open flag per person and kind; its count grows.
CREATE TABLE flags (
    key         INTEGER PRIMARY KEY,
    profile     INTEGER NOT NULL REFERENCES profiles(key),
    kind        TEXT NOT NULL CHECK (kind IN ('copied-message')),
    count       INTEGER NOT NULL CHECK (count > 0),
    sample      TEXT NOT NULL,
    flagged_at  TEXT NOT NULL,
    resolved_at TEXT,
    resolved_by TEXT,
    note        TEXT
);

CREATE UNIQUE INDEX flags_open ON flags (profile, kind) WHERE resolved_at IS NULL;

-- How a report was resolved (`moderate resolve`): a report without a row
-- here is open, in the queue.
CREATE TABLE report_resolutions (
    report      INTEGER PRIMARY KEY REFERENCES reports(key) ON DELETE CASCADE,
    resolved_at TEXT NOT NULL,
    resolved_by TEXT NOT NULL CHECK (length(resolved_by) > 0),
    note        TEXT NOT NULL
);

-- Every moderator action, in order: append-only (the triggers refuse any
-- change or deletion), exported with `swipe moderate log`. People are named
-- by id as they were at the time, so the log outlives an erase.
CREATE TABLE moderation_log (
    seq       INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    moderator TEXT NOT NULL CHECK (length(moderator) > 0),
    action    TEXT NOT NULL CHECK (length(action) > 0),
    target    TEXT NOT NULL,
    reason    TEXT NOT NULL
);

CREATE TRIGGER moderation_log_no_update BEFORE UPDATE ON moderation_log
BEGIN
    SELECT RAISE(ABORT, 'the moderation log is append-only');
END;

CREATE TRIGGER moderation_log_no_delete BEFORE DELETE ON moderation_log
BEGIN
    SELECT RAISE(ABORT, 'the moderation log is append-only');
END;

-- Rule messages-per-minute: a sender's messages in one conversation, newest
-- first (SQLDatabase.checkMessageRate reads the limit's newest).
CREATE INDEX messages_by_sender ON messages (low, high, sender, seq);

-- Views for analysts (version 7; Documentation/Insights.md, "Views for
-- analysts"): the history in readable columns, for sqlite3, psql or DuckDB,
-- with no internal key to learn. People are named by their profile id; times
-- are UTC ISO-8601 text with milliseconds (they sort as text), and each has
-- its UTC day beside it; flags are 0 or 1 on both backends. They count as
-- `swipe insights` counts (the same rows, the same times): a decision in the
-- period of its decided_at, an imported one too; a match at matched_at, the
-- later of the two likes.
--
-- decision_log: one row per decision ever made, undone ones included
-- (undone = 1, undone_at when); imported = 1 for one loaded by
-- `swipe import --decisions`.
CREATE VIEW decision_log AS
SELECT v.id AS viewer_id,
       t.id AS target_id,
       d.decision AS decision,
       d.decided_at AS decided_at,
       substr(d.decided_at, 1, 10) AS decided_day,
       d.via AS via,
       CASE WHEN d.via = 'import' THEN 1 ELSE 0 END AS imported,
       CASE WHEN d.undone_at IS NULL THEN 0 ELSE 1 END AS undone,
       d.undone_at AS undone_at
FROM decisions AS d
JOIN profiles AS v ON v.key = d.viewer
JOIN profiles AS t ON t.key = d.profile;

-- match_history: one row per match, ended ones included. The pair's two ids
-- in no meaningful order; ended_at is an unmatch, a block, or an undo after
-- the pair talked (NULL while it stands); expires_at the deadline for the
-- first message (rule match-expiry), NULL when none. The conversation: its
-- first message's time and sender, whether the first message's recipient
-- ever answered, its last message's time and how many messages it holds.
CREATE VIEW match_history AS
SELECT a.id AS person_a_id,
       b.id AS person_b_id,
       m.matched_at AS matched_at,
       substr(m.matched_at, 1, 10) AS matched_day,
       m.unmatched_at AS ended_at,
       m.expires_at AS expires_at,
       f.sent_at AS first_message_at,
       s.id AS first_sender_id,
       CASE WHEN f.key IS NOT NULL
                 AND EXISTS (SELECT 1 FROM messages AS r
                             WHERE r.low = m.low AND r.high = m.high AND r.sender = f.recipient)
            THEN 1 ELSE 0 END AS replied,
       (SELECT l.sent_at FROM messages AS l
        WHERE l.low = m.low AND l.high = m.high ORDER BY l.seq DESC LIMIT 1) AS last_message_at,
       (SELECT count(*) FROM messages AS c WHERE c.low = m.low AND c.high = m.high) AS messages
FROM matches AS m
JOIN profiles AS a ON a.key = m.low
JOIN profiles AS b ON b.key = m.high
LEFT JOIN messages AS f ON f.low = m.low AND f.high = m.high AND f.seq = 1
LEFT JOIN profiles AS s ON s.key = f.sender;

-- The ranking's fit (version 8; README "Ranking"): a logistic (Rasch) fit of
-- the latest standing decisions, P(V likes C) = σ(mean + generosity(V) +
-- appeal(C)), recomputed in bounded batches (SwipeStore's
-- `SQLDatabase.refitRanking`: at most `Ranking.fitDecisions` decisions, the
-- latest by key), never per decision. One row per profile the last fit saw:
-- its appeal (how much more than typical people like it) and generosity (how
-- much more readily it likes), in log-odds; no row: 0, a typical person's.
-- The row goes with its profile (ON DELETE CASCADE): it is derived data.
CREATE TABLE rank_fit (
    profile    INTEGER PRIMARY KEY REFERENCES profiles(key) ON DELETE CASCADE,
    appeal     REAL NOT NULL,
    generosity REAL NOT NULL
);

-- The fit's one row: its mean (log-odds of a like between two typical
-- people; NULL: never fitted, and the feed ranks by the like rates), the
-- ridge penalty and the decisions it fitted, the largest decision key it saw
-- and when it ran (a refit is due once enough decisions came after it).
CREATE TABLE rank_fit_mean (
    singleton  INTEGER PRIMARY KEY DEFAULT 1 CHECK (singleton = 1),
    mean       REAL,
    ridge      REAL,
    decisions  INTEGER NOT NULL DEFAULT 0 CHECK (decisions >= 0),
    through    INTEGER NOT NULL DEFAULT 0,
    fitted_at  TEXT
);
INSERT INTO rank_fit_mean (singleton) VALUES (1);
