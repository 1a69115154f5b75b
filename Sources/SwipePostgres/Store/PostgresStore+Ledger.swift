import Foundation
import SwipeCore
import SwipeStore

/// The decision ledger: every decision recorded exactly once, matches made and
/// unmade in the same transaction as the decision that causes it (the SQLite
/// `Store+Ledger`'s contract; `PostgresStore+Locks` says how it stays exact
/// with many writers).
extension PostgresStore {
    public func record(
        viewer: String, profile: String, decision: Decision, via: Via, at date: Date?
    ) throws -> RecordedDecision {
        let decidedAt = Timestamp.string(from: date ?? Date())
        return try write {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            try lockViewer(viewerKey)
            try lockPair(viewerKey, profileKey)
            try checkQuota(viewer: viewerKey, decision: decision, decidedAt: decidedAt, rules: try readRules())
            return try recordLocked(
                viewer: (viewerKey, viewer), profile: (profileKey, profile), decision: decision, via: via,
                decidedAt: decidedAt)
        }
    }

    /// `record` inside a write transaction that holds the viewer's and the
    /// pair's locks.
    func recordLocked(
        viewer: (key: Int, id: String), profile: (key: Int, id: String), decision: Decision, via: Via, decidedAt: String
    ) throws -> RecordedDecision {
        guard viewer.key != profile.key else { throw StoreError.selfDecision(viewer.id) }
        if try isBlocked(viewer.key, profile.key) { throw StoreError.blocked(viewer: viewer.id, profile: profile.id) }
        if let existing = try standingDecision(viewer: viewer.key, profile: profile.key) {
            throw StoreError.alreadyDecided(
                viewer: viewer.id, profile: profile.id, decision: existing.decision, decidedAt: existing.decidedAt)
        }
        let inserted = try connection.statement("""
            INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES ($1, $2, $3, $4, $5) RETURNING key
            """).first([.int(viewer.key), .int(profile.key), .text(decision.rawValue), .text(via.rawValue),
                        .text(decidedAt)]) { try $0.int(0) }
        try checkStored(key: inserted, viewer: viewer, profile: profile, decision: decision, decidedAt: decidedAt)
        if decision.isPositive {
            // A like older than where the profile's likers resume (an import) sends them back for it.
            try connection.run(
                "DELETE FROM liker_cursors WHERE viewer = $1 AND decision = $2 AND after_at >= $3",
                .int(profile.key), .text(decision.rawValue), .text(decidedAt))
        }
        var result = RecordedDecision(
            viewer: viewer.id, profile: profile.id, decision: decision, via: via, decidedAt: decidedAt,
            match: nil, missedMatch: false)
        guard let theirs = try standingDecision(viewer: profile.key, profile: viewer.key), theirs.decision.isPositive
        else { return result }
        if decision.isPositive {
            // An ended match keeps its row, so the pair never matches again.
            let matchedAt = max(theirs.decidedAt, decidedAt)
            let made = try connection.run(
                "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                .int(min(viewer.key, profile.key)), .int(max(viewer.key, profile.key)), .text(matchedAt))
            if made > 0 {
                result.match = Match(profile: profile.id, name: try name(ofKey: profile.key), matchedAt: matchedAt)
            }
        } else {
            result.missedMatch = true
        }
        return result
    }

    @discardableResult
    public func undo(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision {
        let undoneAt = Timestamp.string(from: date ?? Date())
        return try write {
            let viewerKey = try requireKey(viewer), profileKey = try requireKey(profile)
            try lockViewer(viewerKey)
            try lockPair(viewerKey, profileKey)
            guard let standing = try standingDecision(viewer: viewerKey, profile: profileKey) else {
                throw StoreError.notDecided(viewer: viewer, profile: profile)
            }
            try checkRewind(viewer: viewerKey, standing: standing)
            try connection.run("UPDATE decisions SET undone_at = $2 WHERE key = $1", .int(standing.key), .text(undoneAt))
            let unmatched = try connection.run(
                "DELETE FROM matches WHERE low = $1 AND high = $2 AND unmatched_at IS NULL",
                .int(min(viewerKey, profileKey)), .int(max(viewerKey, profileKey))) > 0
            try connection.run("DELETE FROM liker_cursors WHERE viewer = $1", .int(viewerKey))
            try connection.run(
                "UPDATE feed_cursors SET after_key = $2 - 1 WHERE viewer = $1 AND after_key >= $2",
                .int(viewerKey), .int(profileKey))
            return UndoneDecision(
                viewer: viewer, profile: profile, decision: standing.decision, via: standing.via,
                decidedAt: standing.decidedAt, undoneAt: undoneAt, unmatched: unmatched)
        }
    }

    /// Refuses the undo of `standing` when the `rewind` rule forbids it.
    private func checkRewind(viewer: Int, standing: StandingDecision) throws {
        try readRules().rewind.check(undoing: standing.decision) {
            try connection.scalarInt(
                "SELECT key FROM decisions WHERE viewer = $1 ORDER BY decided_at DESC, key DESC LIMIT 1", .int(viewer))
                == standing.key
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
            WHERE viewer = $1 AND profile = $2 AND undone_at IS NULL
            """).first([.int(viewer), .int(profile)]) { row in
            let key = try row.int(0)
            return StandingDecision(
                key: key, decision: try Self.decoded(row.text(1), column: "decision", ofDecision: key),
                via: try Self.decoded(row.text(2), column: "via", ofDecision: key), decidedAt: try row.text(3))
        }
    }

    /// A stored `decision` or `via` as its enum; a value swipe never writes
    /// is an error naming the row, never silently read as something else.
    static func decoded<Value: RawRepresentable<String>>(_ text: String, column: String, ofDecision key: Int) throws -> Value {
        guard let value = Value(rawValue: text) else {
            throw StoreError.undecodable(table: "decisions", key: key, column: column, value: text)
        }
        return value
    }

    /// Checks that the row just inserted is there as written (a trigger may
    /// have skipped or changed it): otherwise the decision is not acknowledged.
    private func checkStored(
        key: Int?, viewer: (key: Int, id: String), profile: (key: Int, id: String), decision: Decision, decidedAt: String
    ) throws {
        let what = "\(viewer.id)'s \(decision.rawValue) of \(profile.id) at \(decidedAt)"
        guard let key else { throw StoreError.notStored(table: "decisions", what: what) }
        let stored = try connection.scalarInt("""
            SELECT 1 FROM decisions
            WHERE key = $1 AND viewer = $2 AND profile = $3 AND decision = $4 AND decided_at = $5 AND undone_at IS NULL
            """, .int(key), .int(viewer.key), .int(profile.key), .text(decision.rawValue), .text(decidedAt))
        guard stored != nil else { throw StoreError.notStored(table: "decisions", what: what) }
    }

    func name(ofKey key: Int) throws -> String {
        try connection.scalarText("SELECT name FROM profiles WHERE key = $1", .int(key)) ?? ""
    }
}
