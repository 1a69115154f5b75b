-- Issue 40, Documentation/Scaling.md "Measured here": the nearest this
-- machine comes to Citus's routing. The tables a viewer's decision, undo and
-- feed write are partitioned by viewer hash (16 partitions, declarative
-- partitioning) and the statements of swipe_decide_1 and swipe_undo_1 that
-- name them are planned generically, as the functions plan them (SET
-- plan_cache_mode). "Subplans Removed: 15" is a statement that touches one
-- partition; the likers' lookup by target touches all 16.
--
--   createdb parts && psql -d parts -f scripts/partition-plans.sql   (from the repository's root)
\set ON_ERROR_STOP on
\i schema.postgres.sql
ALTER TABLE decisions RENAME TO decisions_plain;
CREATE TABLE decisions (LIKE decisions_plain INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY HASH (viewer);
DO $$ BEGIN FOR i IN 0..15 LOOP EXECUTE format('CREATE TABLE decisions_%s PARTITION OF decisions FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i); END LOOP; END $$;
CREATE UNIQUE INDEX ON decisions (viewer, profile) WHERE undone_at IS NULL;
CREATE INDEX ON decisions (viewer, decision, decided_at, undone_at);
CREATE INDEX ON decisions (profile, decision, decided_at, key) WHERE undone_at IS NULL;
ALTER TABLE liker_cursors RENAME TO liker_cursors_plain;
CREATE TABLE liker_cursors (LIKE liker_cursors_plain INCLUDING ALL) PARTITION BY HASH (viewer);
DO $$ BEGIN FOR i IN 0..15 LOOP EXECUTE format('CREATE TABLE liker_cursors_%s PARTITION OF liker_cursors FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i); END LOOP; END $$;
ALTER TABLE feed_cursors RENAME TO feed_cursors_plain;
CREATE TABLE feed_cursors (LIKE feed_cursors_plain INCLUDING ALL) PARTITION BY HASH (viewer);
DO $$ BEGIN FOR i IN 0..15 LOOP EXECUTE format('CREATE TABLE feed_cursors_%s PARTITION OF feed_cursors FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i); END LOOP; END $$;
SET plan_cache_mode = force_generic_plan;
PREPARE quota(bigint, text, text, bigint) AS SELECT decided_at FROM decisions WHERE viewer = $1 AND decision = $2 AND undone_at IS NULL AND decided_at > $3 ORDER BY decided_at DESC LIMIT 1 OFFSET $4 - 1;
PREPARE earlier(bigint, bigint) AS SELECT decision, decided_at FROM decisions WHERE viewer = $1 AND profile = $2 AND undone_at IS NULL;
PREPARE ins(bigint, bigint, text, text, text) AS INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES ($1, $2, $3, $4, $5) RETURNING key;
PREPARE cursors(bigint, text, text) AS DELETE FROM liker_cursors WHERE viewer = $1 AND decision = $2 AND after_at >= $3;
PREPARE undo_stamp(bigint, bigint, text) AS UPDATE decisions SET undone_at = $3 WHERE viewer = $1 AND key = $2;
PREPARE undo_cursor(bigint, bigint) AS UPDATE feed_cursors SET after_key = $2 - 1 WHERE viewer = $1 AND after_key >= $2;
PREPARE likers(bigint, text) AS SELECT viewer FROM decisions WHERE profile = $1 AND decision = $2 AND undone_at IS NULL ORDER BY decided_at LIMIT 10;
EXPLAIN (COSTS OFF) EXECUTE quota(7, 'like', '2026', 10);
EXPLAIN (COSTS OFF) EXECUTE earlier(7, 9);
EXPLAIN (COSTS OFF) EXECUTE ins(7, 9, 'like', 'drag', '2026-11-27T00:00:00.000Z');
EXPLAIN (COSTS OFF) EXECUTE cursors(9, 'like', '2026');
EXPLAIN (COSTS OFF) EXECUTE undo_stamp(7, 1, '2026');
EXPLAIN (COSTS OFF) EXECUTE undo_cursor(7, 9);
EXPLAIN (COSTS OFF) EXECUTE likers(9, 'like');
