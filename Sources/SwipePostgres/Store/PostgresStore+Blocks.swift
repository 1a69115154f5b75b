import Foundation
import SwipeCore
import SwipeStore

/// Blocks, unmatch, reports and likes-you (README "Discovery"), as the
/// SQLite `Store+Blocks`; each write holds the pair's lock (`+Locks`).
extension PostgresStore {
    func isBlocked(_ a: Int, _ b: Int) throws -> Bool {
        try connection.scalarInt("""
            SELECT 1 FROM blocks WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1) LIMIT 1
            """, .int(a), .int(b)) != nil
    }

    @discardableResult
    public func block(viewer: String, profile: String, at date: Date?) throws -> BlockOutcome {
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            let (me, them) = try lockedPair(viewer, profile, action: "block")
            let outcome = try blockLocked(me, them, at: now)
            guard outcome.newBlock else { throw StoreError.alreadyBlocked(viewer: viewer, profile: profile) }
            return outcome
        }
    }

    private func blockLocked(_ me: Int, _ them: Int, at now: String) throws -> BlockOutcome {
        let newBlock = try connection.run(
            "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            .int(me), .int(them), .text(now)) > 0
        return BlockOutcome(endedMatch: try endMatch(me, them, at: now), newBlock: newBlock)
    }

    private func endMatch(_ a: Int, _ b: Int, at now: String) throws -> Bool {
        try connection.run(
            "UPDATE matches SET unmatched_at = $3 WHERE low = $1 AND high = $2 AND unmatched_at IS NULL",
            .int(min(a, b)), .int(max(a, b)), .text(now)) > 0
    }

    public func unblock(viewer: String, profile: String) throws {
        try write {
            let (me, them) = try lockedPair(viewer, profile, action: "unblock")
            guard try connection.run("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2", .int(me), .int(them)) > 0
            else { throw StoreError.notBlocked(viewer: viewer, profile: profile) }
            try connection.run("DELETE FROM liker_cursors WHERE viewer IN ($1, $2)", .int(me), .int(them))
            for (a, b) in [(me, them), (them, me)] {
                try connection.run(
                    "UPDATE feed_cursors SET after_key = $2 - 1 WHERE viewer = $1 AND after_key >= $2", .int(a), .int(b))
            }
        }
    }

    public func unmatch(viewer: String, profile: String, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try write {
            let (me, them) = try lockedPair(viewer, profile, action: "unmatch")
            guard try endMatch(me, them, at: now) else { throw StoreError.notMatched(viewer: viewer, profile: profile) }
        }
    }

    @discardableResult
    public func report(viewer: String, profile: String, reason: String, at date: Date?) throws -> BlockOutcome {
        let now = Timestamp.string(from: date ?? Date())
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else {
            throw StoreError.invalidValue(name: "a report's reason", value: reason, expected: "some words saying why")
        }
        return try write {
            let (me, them) = try lockedPair(viewer, profile, action: "report")
            try connection.run(
                "INSERT INTO reports (reporter, reported, reason, reported_at) VALUES ($1, $2, $3, $4)",
                .int(me), .int(them), .text(reason), .text(now))
            return try blockLocked(me, them, at: now)
        }
    }

    public func reports() throws -> [Report] {
        try session {
            try connection.statement("""
                SELECT a.id, b.id, r.reason, r.reported_at
                FROM reports AS r JOIN profiles AS a ON a.key = r.reporter JOIN profiles AS b ON b.key = r.reported
                ORDER BY r.reported_at, r.key
                """).map([]) {
                Report(reporter: try $0.text(0), reported: try $0.text(1), reason: try $0.text(2), reportedAt: try $0.text(3))
            }
        }
    }

    public func blocked(viewer: String) throws -> [String] {
        try session {
            try connection.statement("""
                SELECT p.id FROM blocks AS b JOIN profiles AS p ON p.key = b.blocked WHERE b.blocker = $1
                ORDER BY p.id COLLATE "C"
                """).map([.int(try requireKey(viewer))]) { try $0.text(0) }
        }
    }

    public func likes(viewer: String) throws -> [Liker] {
        try session {
            let key = try requireKey(viewer)
            var result: [Liker] = []
            for kind in [Decision.superlike, .like] {
                result += try connection.statement("""
                    SELECT p.id, p.name, l.decided_at
                    FROM decisions AS l JOIN profiles AS p ON p.key = l.viewer
                    WHERE l.profile = $1 AND l.decision = $2 AND l.undone_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM decisions AS d
                                      WHERE d.viewer = $1 AND d.profile = l.viewer AND d.undone_at IS NULL)
                      AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = $1 AND b.blocked = l.viewer)
                      AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = l.viewer AND b.blocked = $1)
                    ORDER BY l.decided_at, l.key
                    """).map([.int(key), .text(kind.rawValue)]) {
                    Liker(profile: try $0.text(0), name: try $0.text(1), decision: kind, likedAt: try $0.text(2))
                }
            }
            return result
        }
    }

    /// The keys of two different profiles, locked as the acting viewer and
    /// the pair, or the error naming what is wrong.
    private func lockedPair(_ viewer: String, _ profile: String, action: String) throws -> (Int, Int) {
        let me = try requireKey(viewer), them = try requireKey(profile)
        guard me != them else { throw StoreError.selfAction(viewer, action: action) }
        try lockViewer(me)
        try lockPair(me, them)
        return (me, them)
    }
}
