import Foundation
import SwipeCore

/// The decision ledger: every decision recorded exactly once, matches made and
/// unmade in the same transaction as the decision that causes it. Each rule
/// is written here once for every backend: the quota (`checkQuota`), the
/// rewind rule (`checkRewind`), the stored-row check (`checkStored`) and the
/// one statement that makes a match (`makeMatchSQL`).
extension SQLDatabase {
    /// Records that `viewer` decided `decision` about `profile`, at `date`
    /// (now when nil), and makes the match when both sides now like each other.
    ///
    /// A like or superlike over the daily quota (`Rules`) is refused before
    /// anything is written; so is any decision across a block. The viewer's
    /// and the pair's locks are taken first (`SQLExecutor.lockViewer`,
    /// `lockPair`), so the checks see every write that could change them.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfDecision`, `.alreadyDecided`
    ///   (the database holds one standing decision per viewer and profile),
    ///   `.blocked`, `.quotaExceeded`, `.notStored`.
    public func record(
        viewer: String, profile: String, decision: Decision, via: Via, at date: Date?
    ) throws -> RecordedDecision {
        try recordStepByStep(viewer: viewer, profile: profile, decision: decision, via: via, at: date)
    }

    /// `record` as a sequence of statements: the one definition of what a
    /// decision does, and its path on SQLite (where a statement costs no
    /// round trip). PostgreSQL runs the same steps, in the same order, as
    /// one server-side function (`PostgresStore.record`, `swipe_decide_2`
    /// in schema.postgres.sql), held to this by `DecisionModelTests`; it
    /// comes here when that function cannot be installed.
    public func recordStepByStep(
        viewer: String, profile: String, decision: Decision, via: Via, at date: Date?
    ) throws -> RecordedDecision {
        let decidedAt = Timestamp.string(from: date ?? Date())
        return try write {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            try executor.lockViewer(viewerKey)
            try executor.lockPair(viewerKey, profileKey)
            try checkSuspensions(actor: (viewerKey, viewer), other: (profileKey, profile), at: decidedAt)
            let rules = try readRules()
            try checkQuota(viewer: viewerKey, decision: decision, decidedAt: decidedAt, rules: rules)
            let recorded = try recordLocked(
                viewer: (viewerKey, viewer), profile: (profileKey, profile),
                decision: decision, via: via, decidedAt: decidedAt)
            // A match made now gets its deadline for a first message (rule
            // match-expiry); one made by a decisions import, on either
            // backend, has none.
            if let match = recorded.match, rules.matchExpiryHours != nil {
                try stampDeadline(viewerKey, profileKey, matchedAt: match.matchedAt, rules: rules)
            }
            return recorded
        }
    }

    /// `record` for a caller that already holds a write transaction, the
    /// locks and the keys (SQLite's decisions importer).
    package func recordLocked(
        viewer: (key: Int, id: String), profile: (key: Int, id: String),
        decision: Decision, via: Via, decidedAt: String
    ) throws -> RecordedDecision {
        guard viewer.key != profile.key else { throw StoreError.selfDecision(viewer.id) }
        if try isBlocked(viewer.key, profile.key) { throw StoreError.blocked(viewer: viewer.id, profile: profile.id) }
        if let existing = try standingDecision(viewer: viewer.key, profile: profile.key) {
            throw StoreError.alreadyDecided(
                viewer: viewer.id, profile: profile.id, decision: existing.decision, decidedAt: existing.decidedAt)
        }
        let inserted = try executor.insertReturningKey(
            "INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES ($1, $2, $3, $4, $5)",
            [.int(viewer.key), .int(profile.key), .text(decision.rawValue), .text(via.rawValue), .text(decidedAt)])
        try checkStored(key: inserted, viewer: viewer, profile: profile, decision: decision, decidedAt: decidedAt)
        if decision.isPositive {
            // A like older than where the profile's likers resume (an import) sends them back for it.
            try executor.run(
                "DELETE FROM liker_cursors WHERE viewer = $1 AND decision = $2 AND after_at >= $3",
                [.int(profile.key), .text(decision.rawValue), .text(decidedAt)])
        }
        var result = RecordedDecision(
            viewer: viewer.id, profile: profile.id, decision: decision, via: via, decidedAt: decidedAt,
            match: nil, missedMatch: false)
        guard let theirs = try standingDecision(viewer: profile.key, profile: viewer.key), theirs.decision.isPositive
        else { return result }
        if decision.isPositive {
            let matchedAt = max(theirs.decidedAt, decidedAt)
            let made = try executor.run(
                Self.makeMatchSQL,
                [.int(min(viewer.key, profile.key)), .int(max(viewer.key, profile.key)), .text(matchedAt)])
            if made > 0 {
                result.match = Match(profile: profile.id, name: try name(ofKey: profile.key), matchedAt: matchedAt)
            }
        } else {
            result.missedMatch = true
        }
        return result
    }

    /// The one statement that makes a match from a decision: the pair once,
    /// low key first. An ended match keeps its row, so the pair never
    /// matches again (`DO NOTHING`); with the pair's lock held, the second
    /// of two mutual likes sees the first and makes it: never none, never two.
    static var makeMatchSQL: String {
        "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
    }

    /// Takes back `viewer`'s standing decision about `profile`: the row stays,
    /// stamped `undone_at`; a match it made is dissolved; the profile becomes
    /// eligible for the viewer's feed again. The `rewind` rule may refuse it.
    /// A match that was ended (unmatch, block) stays ended.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notDecided`, `.rewindRefused`.
    @discardableResult
    public func undo(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision {
        try undoStepByStep(viewer: viewer, profile: profile, at: date)
    }

    /// `undo` as a sequence of statements: the one definition of what an
    /// undo does, and its path on SQLite. PostgreSQL runs the same steps, in
    /// the same order, as one server-side function (`PostgresStore.undo`,
    /// `swipe_undo_1` in schema.postgres.sql), held to this by
    /// `DecisionModelTests`; it comes here when that function cannot be installed.
    @discardableResult
    public func undoStepByStep(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision {
        let undoneAt = Timestamp.string(from: date ?? Date())
        return try write {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            try executor.lockViewer(viewerKey)
            try executor.lockPair(viewerKey, profileKey)
            guard let standing = try standingDecision(viewer: viewerKey, profile: profileKey) else {
                throw StoreError.notDecided(viewer: viewer, profile: profile)
            }
            try checkRewind(viewer: viewerKey, standing: standing)
            try executor.run(
                "UPDATE decisions SET undone_at = $2 WHERE key = $1", [.int(standing.key), .text(undoneAt)])
            // A match whose conversation began is ended, not deleted: its
            // messages stay (for reports, for the person's own data) and,
            // as after an unmatch, the pair never matches again.
            let pair: [SQLValue] = [.int(min(viewerKey, profileKey)), .int(max(viewerKey, profileKey))]
            let talked = try executor.exists("SELECT 1 FROM messages WHERE low = $1 AND high = $2 LIMIT 1", pair)
            let unmatched =
                try talked
                ? executor.run(
                    "UPDATE matches SET unmatched_at = $3 WHERE low = $1 AND high = $2 AND unmatched_at IS NULL",
                    pair + [.text(undoneAt)]) > 0
                : executor.run("DELETE FROM matches WHERE low = $1 AND high = $2 AND unmatched_at IS NULL", pair) > 0
            try executor.run("DELETE FROM liker_cursors WHERE viewer = $1", [.int(viewerKey)])
            try executor.run(
                "UPDATE feed_cursors SET after_key = $2 - 1 WHERE viewer = $1 AND after_key >= $2",
                [.int(viewerKey), .int(profileKey)])
            return UndoneDecision(
                viewer: viewer, profile: profile, decision: standing.decision, via: standing.via,
                decidedAt: standing.decidedAt, undoneAt: undoneAt, unmatched: unmatched)
        }
    }

    /// Refuses the undo of `standing` when the `rewind` rule forbids it.
    func checkRewind(viewer: Int, standing: StandingDecision) throws {
        try readRules().rewind.check(undoing: standing.decision) {
            try executor.first(
                "SELECT key FROM decisions WHERE viewer = $1 ORDER BY decided_at DESC, key DESC LIMIT 1",
                [.int(viewer)]
            ) { try $0.int("key") } == standing.key
        }
    }

    /// The standing decision of `viewer` about `profile`, if any.
    func standingDecision(viewer: Int, profile: Int) throws -> StandingDecision? {
        try executor.first(
            StandingDecision.self,
            """
            SELECT key, decision, via, decided_at FROM decisions
            WHERE viewer = $1 AND profile = $2 AND undone_at IS NULL
            """, [.int(viewer), .int(profile)])
    }

    /// Checks that the INSERT just run stored a row (a trigger may have
    /// ignored it) and that the row is there as written (a trigger may have
    /// deleted or changed it after): otherwise the decision is not acknowledged.
    func checkStored(
        key: Int?, viewer: (key: Int, id: String), profile: (key: Int, id: String), decision: Decision,
        decidedAt: String
    ) throws {
        let refusal = Self.notStored(viewer: viewer.id, profile: profile.id, decision: decision, decidedAt: decidedAt)
        guard let key else { throw refusal }
        let stored = try executor.exists(
            """
            SELECT 1 FROM decisions
            WHERE key = $1 AND viewer = $2 AND profile = $3 AND decision = $4 AND decided_at = $5 AND undone_at IS NULL
            """, [.int(key), .int(viewer.key), .int(profile.key), .text(decision.rawValue), .text(decidedAt)])
        guard stored else { throw refusal }
    }

    /// The refusal of a decision the database did not keep as written.
    package static func notStored(viewer: String, profile: String, decision: Decision, decidedAt: String) -> StoreError
    {
        .notStored(table: "decisions", what: "\(viewer)'s \(decision.rawValue) of \(profile) at \(decidedAt)")
    }

    /// The `$4 + 1`-th newest standing decision of kind `$2` by viewer `$1`
    /// made after `$3`, if there are that many: a range of `decisions_quota`
    /// walked from its newest end, so it stops after `$4 + 1` steps however
    /// many the window holds (timestamps are fixed-width UTC text, so text
    /// order is time order). `DiscoveryPlanTests` holds the plan.
    public static var quotaSQL: String {
        """
        SELECT decided_at FROM decisions
        WHERE viewer = $1 AND decision = $2 AND undone_at IS NULL AND decided_at > $3
        ORDER BY decided_at DESC LIMIT 1 OFFSET $4
        """
    }

    /// Refuses a `decision` by the viewer at `decidedAt` when its daily
    /// quota is used up: the viewer's standing decisions of that kind in the
    /// 24 hours before number `limit` or more exactly when the `limit`-th
    /// newest of them is inside the window. That one is read from
    /// `decisions_quota` in one descent and `limit` steps at most, where a
    /// count would step every decision in the window, of every kind. The
    /// error says when it leaves the window (24 hours after it was made); a
    /// limit of 0 refuses always, freeing never sooner than now. The viewer's
    /// lock makes the count exact with concurrent sessions of one viewer.
    func checkQuota(viewer: Int, decision: Decision, decidedAt: String, rules: Rules) throws {
        guard let limit = rules.limit(for: decision), let now = Timestamp.date(from: decidedAt) else { return }
        guard limit > 0 else { throw Self.quotaRefusal(decision, limit: limit, nth: nil, decidedAt: decidedAt) }
        let windowStart = Timestamp.string(from: now.addingTimeInterval(-86_400))
        let nth = try executor.first(
            Self.quotaSQL, [.int(viewer), .text(decision.rawValue), .text(windowStart), .int(limit - 1)]
        ) { try $0.text("decided_at") }
        guard let nth else { return }
        throw Self.quotaRefusal(decision, limit: limit, nth: nth, decidedAt: decidedAt)
    }

    /// Where the quota's window starts for a decision at `decidedAt`: 24 hours before.
    package static func quotaWindowStart(decidedAt: String) -> String {
        Timestamp.date(from: decidedAt).map { Timestamp.string(from: $0.addingTimeInterval(-86_400)) } ?? decidedAt
    }

    /// The refusal of a decision over its daily `limit`: it frees 24 hours
    /// after `nth` (the oldest decision that counts), or never sooner than
    /// now (`decidedAt`) when the limit is 0 or less.
    package static func quotaRefusal(_ decision: Decision, limit: Int, nth: String?, decidedAt: String) -> StoreError {
        let freesAt =
            nth.flatMap(Timestamp.date(from:)).map { Timestamp.string(from: $0.addingTimeInterval(86_400)) }
            ?? decidedAt
        return .quotaExceeded(decision: decision, limit: limit, freesAt: freesAt)
    }

    /// The name of the profile with internal key `key` ("" when there is none).
    func name(ofKey key: Int) throws -> String {
        try executor.first("SELECT name FROM profiles WHERE key = $1", [.int(key)]) { try $0.text("name") } ?? ""
    }
}

/// A standing decision as the ledger reads it before acting on it.
struct StandingDecision: FetchableRow {
    var key: Int
    var decision: Decision
    var via: Via
    var decidedAt: String

    init(row: some SQLRow) throws {
        key = try row.int("key")
        decision = try row.decoded("decision", key: key)
        via = try row.decoded("via", key: key)
        decidedAt = try row.text("decided_at")
    }
}
