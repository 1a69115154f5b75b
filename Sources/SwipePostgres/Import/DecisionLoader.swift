import Foundation
import SwipeCore

/// Loads a decisions import into PostgreSQL inside the import's
/// transaction: the rows are copied into a temporary table (ON COMMIT DROP),
/// then checked, written and matched by a few set-based statements, where
/// SQLite runs the ledger once per row.
///
/// The outcome is the one the row-by-row ledger gives (README "Profiles
/// CSV", decisions): each row is checked in order for an unknown viewer, an
/// unknown profile, a malformed decision/time/via (checked by the caller),
/// a self decision and a block; of the rows that pass, the first one for a
/// pair is inserted when the database holds no standing decision for it; a
/// row meeting a standing decision (in the database, or the file's first for
/// that pair) with the same kind and time is unchanged, any other conflicts.
/// Matches are made for every pair that now likes both ways, one of the two
/// from this file, at the later of the two times; an ended match stays ended.
final class DecisionLoader {
    private enum State {
        case ready
        case copying(PGCopyStream)
        /// Copied and checked: `write()` stores the good rows, `expected` of them.
        case checked(expected: Int)
        case finished
    }

    /// Why a row is refused, as the ledger would refuse it.
    enum Problem: Equatable {
        case unknownViewer
        case unknownProfile
        /// The decision, time or via the caller found malformed.
        case malformed
        case selfDecision
        case blocked
        /// The row's decision and time meet a different standing decision: its kind and time.
        case conflict(decision: Decision, decidedAt: String, standing: Decision, standingAt: String)
    }

    /// A refused row: its line, the ids as sent (nil for one holding a
    /// NUL, sent as none) and why.
    struct Refusal: Equatable {
        var line: Int
        var viewer: String?
        var profile: String?
        var problem: Problem
    }

    struct Outcome {
        var inserted = 0
        var unchanged = 0
        /// In file order.
        var refusals: [Refusal] = []
    }

    private let connection: PGConnection
    private var state = State.ready

    init(connection: PGConnection) { self.connection = connection }

    func begin() throws {
        guard case .ready = state else { preconditionFailure("DecisionLoader.begin twice") }
        // The decisions and blocks the rows are checked against must not
        // change until the import commits (a decision made meanwhile waits,
        // as it waits for SQLite's write lock).
        try connection.execute("LOCK TABLE decisions, blocks IN SHARE ROW EXCLUSIVE MODE")
        try connection.execute(Self.createStagingSQL)
        state = .copying(try PGCopyStream(connection: connection, sql: "COPY swipe_import_decisions FROM STDIN"))
    }

    /// Sends one row: the viewer's and profile's ids as trimmed from the
    /// file, and the decision, its normalized time and via, nil when the
    /// caller found any of the three malformed. An id holding a NUL (which
    /// PostgreSQL text cannot hold, so no profile has it) is sent as none.
    func add(line: Int, viewer: String, profile: String, decision: (Decision, String, Via)?) throws {
        guard case .copying(let stream) = state else { return }
        try stream.write { writer in
            writer.field(.integer(Int64(line)))
            for id in [viewer, profile] { writer.field(id.utf8.contains(0) ? .null : .text(id)) }
            if let (kind, decidedAt, via) = decision {
                writer.field(.text(kind.rawValue))
                writer.field(.text(decidedAt))
                writer.field(.text(via.rawValue))
            } else {
                writer.field(.null)
                writer.field(.null)
                writer.field(.null)
            }
            try writer.endRow()
        }
    }

    /// Ends the COPY and checks every row: what `write()` would store, and
    /// the refused rows.
    func check() throws -> Outcome {
        guard case .copying(let stream) = state else {
            state = .finished
            return Outcome()
        }
        state = .finished
        try stream.finish()
        try connection.execute("ANALYZE swipe_import_decisions")
        try connection.execute(Self.checkSQL)
        var outcome = Outcome()
        for row in try connection.query(Self.refusalsSQL) {
            func decision(_ column: Int) throws -> Decision {
                let text = try row.text(column)
                guard let decision = Decision(rawValue: text) else {
                    throw PostgresError(
                        kind: .client, message: "a decision reads \(PostgresValue.text(text))", sql: Self.refusalsSQL)
                }
                return decision
            }
            let problem: Problem
            switch try row.int(1) {
            case 1: problem = .unknownViewer
            case 2: problem = .unknownProfile
            case 3: problem = .malformed
            case 4: problem = .selfDecision
            case 5: problem = .blocked
            default:
                problem = .conflict(
                    decision: try decision(4), decidedAt: try row.text(5), standing: try decision(6),
                    standingAt: try row.text(7))
            }
            outcome.refusals.append(
                Refusal(
                    line: try row.int(0), viewer: try row.optionalText(2), profile: try row.optionalText(3),
                    problem: problem))
        }
        let counts = try connection.query(Self.countsSQL)[0]
        outcome.inserted = try counts.int(0)
        outcome.unchanged = try counts.int(1)
        state = .checked(expected: outcome.inserted)
        return outcome
    }

    /// Stores the rows `check()` found good, and their matches.
    func write() throws {
        guard case .checked(let expected) = state else { return }
        state = .finished
        // The rows are counted in rank_stats by one statement per side, not row by row.
        try connection.execute(Self.countInBulk)
        let inserted = try connection.run(Self.insertSQL)
        guard inserted == expected else {
            throw PostgresError(
                kind: .client, message: "\(expected) decisions were to be stored, \(inserted) were (a trigger?)",
                sql: Self.insertSQL)
        }
        try connection.execute(Self.countRowByRow)
        try connection.execute(Self.rankStatsSQL)
        try connection.execute(Self.matchSQL)
        try connection.execute(Self.likerCursorsSQL)
    }

    func abort() {
        if case .copying(let stream) = state { stream.abort("the import stopped") }
        state = .finished
    }

    // MARK: - SQL

    static let createStagingSQL = """
        CREATE TEMPORARY TABLE swipe_import_decisions (
            line bigint NOT NULL, viewer text, profile text, decision text, decided_at text, via text
        ) ON COMMIT DROP
        """

    /// Every row with its keys and its first problem (0: none), then, for
    /// the rows without one, the standing decision each meets and what
    /// becomes of it: 'inserted', 'unchanged' or 'conflict'.
    static let checkSQL = """
        CREATE TEMPORARY TABLE swipe_import_checked ON COMMIT DROP AS
        SELECT t.line, t.viewer AS viewer_id, t.profile AS profile_id, v.key AS viewer, p.key AS profile,
               t.decision, t.decided_at, t.via,
               CASE WHEN v.key IS NULL THEN 1
                    WHEN p.key IS NULL THEN 2
                    WHEN t.decision IS NULL THEN 3
                    WHEN v.key = p.key THEN 4
                    WHEN EXISTS (SELECT 1 FROM blocks AS b
                                 WHERE (b.blocker = v.key AND b.blocked = p.key)
                                    OR (b.blocker = p.key AND b.blocked = v.key)) THEN 5
                    ELSE 0 END AS problem
        FROM swipe_import_decisions AS t
        LEFT JOIN profiles AS v ON v.id = t.viewer
        LEFT JOIN profiles AS p ON p.id = t.profile;
        CREATE TEMPORARY TABLE swipe_import_outcomes ON COMMIT DROP AS
        SELECT r.line, r.viewer_id, r.profile_id, r.viewer, r.profile, r.decision, r.decided_at, r.via,
               r.standing, r.standing_at,
               CASE WHEN r.standing IS NULL THEN 'inserted'
                    WHEN r.standing = r.decision AND r.standing_at = r.decided_at THEN 'unchanged'
                    ELSE 'conflict' END AS status
        FROM (
            SELECT c.*,
                   coalesce(s.decision, CASE WHEN c.line <> first_value(c.line) OVER pair
                                             THEN first_value(c.decision) OVER pair END) AS standing,
                   coalesce(s.decided_at, CASE WHEN c.line <> first_value(c.line) OVER pair
                                               THEN first_value(c.decided_at) OVER pair END) AS standing_at
            FROM swipe_import_checked AS c
            LEFT JOIN decisions AS s ON s.viewer = c.viewer AND s.profile = c.profile AND s.undone_at IS NULL
            WHERE c.problem = 0
            WINDOW pair AS (PARTITION BY c.viewer, c.profile ORDER BY c.line)
        ) AS r
        """

    /// The refused rows in file order: line, problem (1–5 as in `checkSQL`,
    /// 6 a conflict), the viewer's and profile's ids as sent, and for a
    /// conflict the row's decision and time and the standing ones.
    static let refusalsSQL = """
        SELECT line, problem, viewer_id, profile_id, NULL::text, NULL::text, NULL::text, NULL::text
        FROM swipe_import_checked WHERE problem <> 0
        UNION ALL
        SELECT line, 6, viewer_id, profile_id, decision, decided_at, standing, standing_at
        FROM swipe_import_outcomes WHERE status = 'conflict'
        ORDER BY 1
        """

    static let countsSQL = """
        SELECT count(*) FILTER (WHERE status = 'inserted'), count(*) FILTER (WHERE status = 'unchanged')
        FROM swipe_import_outcomes
        """

    /// In file order, so keys follow it as on SQLite.
    static let insertSQL = """
        INSERT INTO decisions (viewer, profile, decision, via, decided_at)
        SELECT viewer, profile, decision, via, decided_at FROM swipe_import_outcomes
        WHERE status = 'inserted' ORDER BY line
        """

    /// `rank_stats_keep` steps aside while the import inserts (the setting
    /// is `PostgresSchema.bulkRankStatsSetting`, until the transaction ends),
    /// then counts row by row again.
    static let countInBulk = "SET LOCAL swipe.rank_stats_in_bulk = 'on'"
    static let countRowByRow = "SET LOCAL swipe.rank_stats_in_bulk = 'off'"

    /// What `rank_stats_keep` adds for each decision inserted, summed per
    /// profile: a standing decision given (and liked) by its viewer, who
    /// acted at its time; received (and liked) by its profile. Rows in key
    /// order, as the feeds' impression counts take them.
    static let rankStatsSQL = """
        INSERT INTO rank_stats AS r (profile, given, given_likes, last_active_at)
        SELECT viewer, count(*), count(*) FILTER (WHERE decision <> 'hate'), max(decided_at)
        FROM swipe_import_outcomes WHERE status = 'inserted' GROUP BY viewer ORDER BY viewer
        ON CONFLICT (profile) DO UPDATE SET
            given = r.given + excluded.given, given_likes = r.given_likes + excluded.given_likes,
            last_active_at = greatest(coalesce(r.last_active_at, ''), excluded.last_active_at);
        INSERT INTO rank_stats AS r (profile, received, received_likes)
        SELECT profile, count(*), count(*) FILTER (WHERE decision <> 'hate')
        FROM swipe_import_outcomes WHERE status = 'inserted' GROUP BY profile ORDER BY profile
        ON CONFLICT (profile) DO UPDATE SET
            received = r.received + excluded.received, received_likes = r.received_likes + excluded.received_likes
        """

    /// Each pair liking both ways now, one side from this file, matched at
    /// the later like; a pair with a match row (an ended one too) keeps it.
    static let matchSQL = """
        INSERT INTO matches (low, high, matched_at)
        SELECT DISTINCT least(n.viewer, n.profile), greatest(n.viewer, n.profile), greatest(n.decided_at, o.decided_at)
        FROM swipe_import_outcomes AS n
        JOIN decisions AS o ON o.viewer = n.profile AND o.profile = n.viewer AND o.undone_at IS NULL
        WHERE n.status = 'inserted' AND n.decision IN ('like', 'superlike') AND o.decision IN ('like', 'superlike')
        ON CONFLICT DO NOTHING
        """

    /// A like older than where its profile's likers resume sends them back for it.
    static let likerCursorsSQL = """
        DELETE FROM liker_cursors AS l
        USING swipe_import_outcomes AS n
        WHERE n.status = 'inserted' AND l.viewer = n.profile AND l.decision = n.decision AND l.after_at >= n.decided_at
        """
}
