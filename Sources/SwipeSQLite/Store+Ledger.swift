import SwipeCSV
import SwipeStore
import Foundation
import SwipeCore

/// The decision ledger: every decision recorded exactly once, matches made and
/// unmade in the same transaction as the decision that causes it.
extension Store {
    /// Records that `viewer` decided `decision` about `profile`, at `date`
    /// (now when nil), and makes the match when both sides now like each other.
    ///
    /// A like or superlike over the daily quota (`Rules`) is refused before
    /// anything is written; so is any decision across a block.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfDecision`, `.alreadyDecided`
    ///   (the database holds one standing decision per viewer and profile),
    ///   `.blocked`, `.quotaExceeded`.
    public func record(
        viewer: String, profile: String, decision: Decision, via: Via, at date: Date?
    ) throws -> RecordedDecision {
        let decidedAt = Timestamp.string(from: date ?? Date())
        return try connection.writeTransaction {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            try checkQuota(viewer: viewerKey, decision: decision, decidedAt: decidedAt, rules: try rules())
            return try recordInTransaction(
                viewer: (viewerKey, viewer), profile: (profileKey, profile),
                decision: decision, via: via, decidedAt: decidedAt)
        }
    }

    /// `record` for a caller that already holds a write transaction and the
    /// keys (the decisions importer).
    func recordInTransaction(
        viewer: (key: Int, id: String), profile: (key: Int, id: String),
        decision: Decision, via: Via, decidedAt: String
    ) throws -> RecordedDecision {
        guard viewer.key != profile.key else { throw StoreError.selfDecision(viewer.id) }
        if try isBlocked(viewer.key, profile.key) { throw StoreError.blocked(viewer: viewer.id, profile: profile.id) }
        if let existing = try standingDecision(viewer: viewer.key, profile: profile.key) {
            throw StoreError.alreadyDecided(
                viewer: viewer.id, profile: profile.id, decision: existing.decision, decidedAt: existing.decidedAt)
        }
        try connection.statement("""
            INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (?1, ?2, ?3, ?4, ?5)
            """).bind(.int(viewer.key), .int(profile.key), .text(decision.rawValue), .text(via.rawValue),
                      .text(decidedAt)).run()
        try checkStored(viewer: viewer, profile: profile, decision: decision, decidedAt: decidedAt)
        if decision.isPositive {
            // A like older than where the profile's likers resume (an import) sends them back for it.
            try connection.statement("""
                DELETE FROM liker_cursors WHERE viewer = ?1 AND decision = ?2 AND after_at >= ?3
                """).bind(.int(profile.key), .text(decision.rawValue), .text(decidedAt)).run()
        }
        var result = RecordedDecision(
            viewer: viewer.id, profile: profile.id, decision: decision, via: via, decidedAt: decidedAt,
            match: nil, missedMatch: false)
        guard let theirs = try standingDecision(viewer: profile.key, profile: viewer.key),
              theirs.decision.isPositive
        else { return result }
        if decision.isPositive {
            // An ended match keeps its row, so the pair never matches again.
            let matchedAt = max(theirs.decidedAt, decidedAt)
            try connection.statement("""
                INSERT INTO matches (low, high, matched_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING
                """).bind(.int(min(viewer.key, profile.key)), .int(max(viewer.key, profile.key)),
                          .text(matchedAt)).run()
            if connection.changes > 0 {
                result.match = Match(profile: profile.id, name: try name(ofKey: profile.key), matchedAt: matchedAt)
            }
        } else {
            result.missedMatch = true
        }
        return result
    }

    /// Takes back `viewer`'s standing decision about `profile`: the row stays,
    /// stamped `undone_at`; a match it made is dissolved; the profile becomes
    /// eligible for the viewer's feed again. The `rewind` rule may refuse it.
    /// A match that was ended (unmatch, block) stays ended.
    ///
    /// - Throws: `StoreError.unknownProfile`, `StoreError.notDecided`, `StoreError.rewindRefused`.
    @discardableResult
    public func undo(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision {
        let undoneAt = Timestamp.string(from: date ?? Date())
        return try connection.writeTransaction {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            guard let standing = try standingDecision(viewer: viewerKey, profile: profileKey) else {
                throw StoreError.notDecided(viewer: viewer, profile: profile)
            }
            try checkRewind(viewer: viewerKey, standing: standing)
            try connection.statement("UPDATE decisions SET undone_at = ?2 WHERE key = ?1")
                .bind(.int(standing.key), .text(undoneAt)).run()
            try connection.statement("DELETE FROM matches WHERE low = ?1 AND high = ?2 AND unmatched_at IS NULL")
                .bind(.int(min(viewerKey, profileKey)), .int(max(viewerKey, profileKey))).run()
            let unmatched = connection.changes > 0
            try connection.statement("DELETE FROM liker_cursors WHERE viewer = ?1").bind(.int(viewerKey)).run()
            try connection.statement("""
                UPDATE feed_cursors SET after_key = ?2 - 1 WHERE viewer = ?1 AND after_key >= ?2
                """).bind(.int(viewerKey), .int(profileKey)).run()
            return UndoneDecision(
                viewer: viewer, profile: profile, decision: standing.decision, via: standing.via,
                decidedAt: standing.decidedAt, undoneAt: undoneAt, unmatched: unmatched)
        }
    }

    /// Refuses the undo of `standing` when the `rewind` rule forbids it.
    private func checkRewind(viewer: Int, standing: StandingDecision) throws {
        try rules().rewind.check(undoing: standing.decision) {
            try connection.statement("""
                SELECT key FROM decisions WHERE viewer = ?1 ORDER BY decided_at DESC, key DESC LIMIT 1
                """).bind(.int(viewer)).first { $0.int(0) } == standing.key
        }
    }

    struct StandingDecision {
        var key: Int
        var decision: Decision
        var via: Via
        var decidedAt: String
    }

    func standingDecision(viewer: Int, profile: Int) throws -> StandingDecision? {
        try connection.statement("""
            SELECT key, decision, via, decided_at FROM decisions
            WHERE viewer = ?1 AND profile = ?2 AND undone_at IS NULL
            """).bind(.int(viewer), .int(profile)).first { row in
            StandingDecision(
                key: row.int(0), decision: try Self.decoded(row.text(1), column: "decision", ofDecision: row.int(0)),
                via: try Self.decoded(row.text(2), column: "via", ofDecision: row.int(0)), decidedAt: row.text(3))
        }
    }

    /// A stored `decision` or `via` as its enum; a value swipe never writes
    /// (the CHECKs were bypassed by another program) is an error naming the
    /// row, never silently read as something else.
    static func decoded<Value: RawRepresentable<String>>(
        _ text: String, column: String, ofDecision key: Int
    ) throws -> Value {
        guard let value = Value(rawValue: text) else {
            throw StoreError.undecodable(table: "decisions", key: key, column: column, value: text)
        }
        return value
    }

    /// Checks that the INSERT just run stored exactly one row, and that the
    /// row is there as written: a trigger may have ignored the insert
    /// (no change) or deleted the row after it (SQLite still counts one
    /// change, as it counts only the statement's own rows). Either way the
    /// decision must not be acknowledged.
    private func checkStored(
        viewer: (key: Int, id: String), profile: (key: Int, id: String), decision: Decision, decidedAt: String
    ) throws {
        let what = "\(viewer.id)'s \(decision.rawValue) of \(profile.id) at \(decidedAt)"
        guard connection.changes == 1 else { throw StoreError.notStored(table: "decisions", what: what) }
        let stored = try connection.statement("""
            SELECT 1 FROM decisions
            WHERE key = ?1 AND viewer = ?2 AND profile = ?3 AND decision = ?4 AND decided_at = ?5 AND undone_at IS NULL
            """).bind(.int(connection.lastInsertRowID), .int(viewer.key), .int(profile.key), .text(decision.rawValue),
                      .text(decidedAt)).first { _ in true } ?? false
        guard stored else { throw StoreError.notStored(table: "decisions", what: what) }
    }

    func name(ofKey key: Int) throws -> String {
        try connection.statement("SELECT name FROM profiles WHERE key = ?1").bind(.int(key)).first { $0.text(0) } ?? ""
    }
}
