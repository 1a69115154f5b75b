import SwipeCSV
import SwipeStore
import Foundation
import SwipeCore

extension Store {
    /// Whether a block stands between the two keys, either way.
    func isBlocked(_ a: Int, _ b: Int) throws -> Bool {
        try connection.statement("""
            SELECT 1 FROM blocks WHERE (blocker = ?1 AND blocked = ?2) OR (blocker = ?2 AND blocked = ?1)
            """).bind(.int(a), .int(b)).first { _ in true } ?? false
    }

    /// `viewer` blocks `profile`: neither sees, decides about or is listed to
    /// the other while it stands, and a match between them ends for both.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.alreadyBlocked`.
    @discardableResult
    public func block(viewer: String, profile: String, at date: Date?) throws -> BlockOutcome {
        let now = Timestamp.string(from: date ?? Date())
        return try connection.writeTransaction {
            let (me, them) = try pair(viewer, profile, action: "block")
            let outcome = try blockInTransaction(me, them, at: now)
            guard outcome.newBlock else { throw StoreError.alreadyBlocked(viewer: viewer, profile: profile) }
            return outcome
        }
    }

    private func blockInTransaction(_ me: Int, _ them: Int, at now: String) throws -> BlockOutcome {
        try connection.statement("""
            INSERT INTO blocks (blocker, blocked, blocked_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING
            """).bind(.int(me), .int(them), .text(now)).run()
        let newBlock = connection.changes > 0
        return BlockOutcome(endedMatch: try endMatch(me, them, at: now), newBlock: newBlock)
    }

    /// Stamps the standing match of the pair ended; false when there was none.
    private func endMatch(_ a: Int, _ b: Int, at now: String) throws -> Bool {
        try connection.statement("""
            UPDATE matches SET unmatched_at = ?3 WHERE low = ?1 AND high = ?2 AND unmatched_at IS NULL
            """).bind(.int(min(a, b)), .int(max(a, b)), .text(now)).run()
        return connection.changes > 0
    }

    /// Lifts `viewer`'s block of `profile` (not one the other way). An ended
    /// match stays ended.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.notBlocked`.
    public func unblock(viewer: String, profile: String) throws {
        try connection.writeTransaction {
            let (me, them) = try pair(viewer, profile, action: "unblock")
            try connection.statement("DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2").bind(.int(me), .int(them)).run()
            guard connection.changes > 0 else { throw StoreError.notBlocked(viewer: viewer, profile: profile) }
            try connection.statement("DELETE FROM liker_cursors WHERE viewer IN (?1, ?2)").bind(.int(me), .int(them)).run()
            for (a, b) in [(me, them), (them, me)] {
                try connection.statement("UPDATE feed_cursors SET after_key = ?2 - 1 WHERE viewer = ?1 AND after_key >= ?2")
                    .bind(.int(a), .int(b)).run()
            }
        }
    }

    /// Ends the standing match of `viewer` and `profile` for both, for good:
    /// the pair never matches again, whatever is undone or liked later.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.notMatched`.
    public func unmatch(viewer: String, profile: String, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try connection.writeTransaction {
            let (me, them) = try pair(viewer, profile, action: "unmatch")
            guard try endMatch(me, them, at: now) else { throw StoreError.notMatched(viewer: viewer, profile: profile) }
        }
    }

    /// `viewer` reports `profile` for `reason`: the report is stored for
    /// moderators and `viewer` blocks `profile` (if not already).
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.invalidValue` (an empty reason).
    @discardableResult
    public func report(viewer: String, profile: String, reason: String, at date: Date?) throws -> BlockOutcome {
        let now = Timestamp.string(from: date ?? Date())
        let reason = reason.trimmed(newlines: true)
        guard !reason.isEmpty else {
            throw StoreError.invalidValue(name: "a report's reason", value: reason, expected: "some words saying why")
        }
        return try connection.writeTransaction {
            let (me, them) = try pair(viewer, profile, action: "report")
            try connection.statement("""
                INSERT INTO reports (reporter, reported, reason, reported_at) VALUES (?1, ?2, ?3, ?4)
                """).bind(.int(me), .int(them), .text(reason), .text(now)).run()
            return try blockInTransaction(me, them, at: now)
        }
    }

    /// Every report, oldest first.
    public func reports() throws -> [Report] {
        try connection.statement("""
            SELECT a.id, b.id, r.reason, r.reported_at
            FROM reports AS r JOIN profiles AS a ON a.key = r.reporter JOIN profiles AS b ON b.key = r.reported
            ORDER BY r.reported_at, r.key
            """).bind().map { Report(reporter: $0.text(0), reported: $0.text(1), reason: $0.text(2), reportedAt: $0.text(3)) }
    }

    /// The profiles `viewer` has blocked, as ids, in id order.
    public func blocked(viewer: String) throws -> [String] {
        try connection.statement("""
            SELECT p.id FROM blocks AS b JOIN profiles AS p ON p.key = b.blocked WHERE b.blocker = ?1 ORDER BY p.id
            """).bind(.int(try requireKey(viewer))).map { $0.text(0) }
    }

    /// Those holding a standing like or superlike of `viewer` that `viewer`
    /// has not decided, no block either way: superlikes first, then likes,
    /// each oldest first (`decisions_likers`, one range per kind).
    public func likes(viewer: String) throws -> [Liker] {
        let key = try requireKey(viewer)
        var result: [Liker] = []
        for kind in [Decision.superlike, .like] {
            result += try connection.statement("""
                SELECT p.id, p.name, l.decided_at
                FROM decisions AS l CROSS JOIN profiles AS p ON p.key = l.viewer
                WHERE l.profile = ?1 AND l.decision = ?2 AND l.undone_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM decisions AS d
                                  WHERE d.viewer = ?1 AND d.profile = l.viewer AND d.undone_at IS NULL)
                  AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = ?1 AND b.blocked = l.viewer)
                  AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = l.viewer AND b.blocked = ?1)
                ORDER BY l.decided_at, l.key
                """).bind(.int(key), .text(kind.rawValue)).map {
                Liker(profile: $0.text(0), name: $0.text(1), decision: kind, likedAt: $0.text(2))
            }
        }
        return result
    }

    /// The keys of two different profiles, or the error naming what is wrong.
    private func pair(_ viewer: String, _ profile: String, action: String) throws -> (Int, Int) {
        let me = try requireKey(viewer), them = try requireKey(profile)
        guard me != them else { throw StoreError.selfAction(viewer, action: action) }
        return (me, them)
    }
}
