import Foundation
import SwipeCore

/// Blocks, unmatch, reports and likes-you (README "Discovery"); each write
/// holds the acting viewer's and the pair's locks.
extension SQLDatabase {
    /// Whether a block stands between the two keys, either way.
    func isBlocked(_ a: Int, _ b: Int) throws -> Bool {
        try executor.exists(
            """
            SELECT 1 FROM blocks WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1) LIMIT 1
            """, [.int(a), .int(b)])
    }

    /// `viewer` blocks `profile`: neither sees, decides about or is listed to
    /// the other while it stands, and a match between them ends for both.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.alreadyBlocked`.
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
        let newBlock =
            try executor.run(
                "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                [.int(me), .int(them), .text(now)]) > 0
        return BlockOutcome(endedMatch: try endMatch(me, them, at: now), newBlock: newBlock)
    }

    /// Stamps the standing match of the pair ended; false when there was none.
    private func endMatch(_ a: Int, _ b: Int, at now: String) throws -> Bool {
        try executor.run(
            "UPDATE matches SET unmatched_at = $3 WHERE low = $1 AND high = $2 AND unmatched_at IS NULL",
            [.int(min(a, b)), .int(max(a, b)), .text(now)]) > 0
    }

    /// Lifts `viewer`'s block of `profile` (not one the other way). An ended
    /// match stays ended.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.notBlocked`.
    public func unblock(viewer: String, profile: String) throws {
        try write {
            let (me, them) = try lockedPair(viewer, profile, action: "unblock")
            guard
                try executor.run("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2", [.int(me), .int(them)]) > 0
            else { throw StoreError.notBlocked(viewer: viewer, profile: profile) }
            try executor.run("DELETE FROM liker_cursors WHERE viewer IN ($1, $2)", [.int(me), .int(them)])
            for (a, b) in [(me, them), (them, me)] {
                try executor.run(
                    "UPDATE feed_cursors SET after_key = $2 - 1 WHERE viewer = $1 AND after_key >= $2",
                    [.int(a), .int(b)])
            }
        }
    }

    /// Ends the standing match of `viewer` and `profile` for both, for good:
    /// the pair never matches again, whatever is undone or liked later.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.selfAction`, `.notMatched`.
    public func unmatch(viewer: String, profile: String, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try write {
            let (me, them) = try lockedPair(viewer, profile, action: "unmatch")
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
        guard !TextLimits.exceeds(reason, TextLimits.reason) else {
            throw StoreError.invalidValue(
                name: "a report's reason", value: String(reason.prefix(40)) + "…",
                expected: "at most \(TextLimits.reason.formatted(grouping: ",")) characters "
                    + "(it has \(reason.unicodeScalars.count.formatted(grouping: ",")))")
        }
        return try write {
            let (me, them) = try lockedPair(viewer, profile, action: "report")
            try executor.run(
                "INSERT INTO reports (reporter, reported, reason, reported_at) VALUES ($1, $2, $3, $4)",
                [.int(me), .int(them), .text(reason), .text(now)])
            try keepEvidence(reporter: viewer, me: me, them: them, reason: reason, at: now)
            return try blockLocked(me, them, at: now)
        }
    }

    /// Every report, oldest first.
    /// Every report, oldest first; those about erased people under their
    /// tombstone id (`erase`).
    public func reports() throws -> [Report] {
        try read {
            let stored = try executor.all(
                Report.self,
                """
                SELECT a.id AS reporter, b.id AS reported, r.reason, r.reported_at
                FROM reports AS r JOIN profiles AS a ON a.key = r.reporter JOIN profiles AS b ON b.key = r.reported
                ORDER BY r.reported_at, r.key
                """, [])
            var kept = try tombstonedReports().map {
                Report(reporter: $0.reporter, reported: $0.reported, reason: $0.reason, reportedAt: $0.reportedAt)
            }
            // Reports whose reporter was erased live on in their evidence alone.
            let listed = stored + kept
            for (_, evidence) in try storedEvidence()
            where !listed.contains(where: { evidence.belongs(to: $0) }) {
                kept.append(
                    Report(
                        reporter: evidence.reporter, reported: evidence.reported, reason: evidence.reason,
                        reportedAt: evidence.reportedAt))
            }
            guard !kept.isEmpty else { return stored }
            // Stable: equal times keep stored reports first, each in its order.
            return (stored + kept).enumerated().sorted {
                ($0.element.reportedAt, $0.offset) < ($1.element.reportedAt, $1.offset)
            }.map(\.element)
        }
    }

    /// The pair's last `limit` messages kept with `report`: its evidence
    /// (`ReportEvidence`, which outlives either person's erase), else, for a
    /// report older than evidence, the conversation as stored now, or none
    /// once either person is gone. Never fails because someone left.
    public func transcript(of report: Report, limit: Int) throws -> [Message] {
        try read { try transcriptLocked(of: report, limit: limit) }
    }

    /// `transcript` inside a transaction already open.
    func transcriptLocked(of report: Report, limit: Int) throws -> [Message] {
        do {
            if let evidence = try storedEvidence().first(where: { $0.evidence.belongs(to: report) })?.evidence {
                return Array(evidence.transcript.suffix(limit))
            }
            guard let reporter = try profileKey(id: report.reporter), let reported = try profileKey(id: report.reported)
            else { return [] }
            let (low, high) = (min(reporter, reported), max(reporter, reported))
            let newestFirst = try executor.all(
                """
                SELECT m.seq, s.id AS sender_id, r.id AS recipient_id, m.body, m.client_id, m.sent_at, m.read_at
                FROM messages AS m JOIN profiles AS s ON s.key = m.sender JOIN profiles AS r ON r.key = m.recipient
                WHERE m.low = $1 AND m.high = $2 AND m.sent_at <= $3
                ORDER BY m.seq DESC
                LIMIT $4
                """, [.int(low), .int(high), .text(report.reportedAt), .int(limit)]
            ) { try Message(row: $0) }
            return newestFirst.reversed()
        }
    }

    /// The profiles `viewer` has blocked, as ids, in byte order.
    public func blocked(viewer: String) throws -> [String] {
        try read {
            try executor.all(
                "SELECT p.id FROM blocks AS b JOIN profiles AS p ON p.key = b.blocked WHERE b.blocker = $1 ORDER BY p.id"
                    + executor.dialect.byteOrder,
                [.int(try requireKey(viewer))]
            ) { try $0.text("id") }
        }
    }

    /// Those holding a standing like or superlike of `viewer` that `viewer`
    /// has not decided, no block either way: superlikes first, then likes,
    /// each oldest first (`decisions_likers`, one range per kind).
    public func likes(viewer: String) throws -> [Liker] {
        try read {
            let key = try requireKey(viewer)
            var result: [Liker] = []
            for kind in [Decision.superlike, .like] {
                result += try executor.all(
                    Liker.self,
                    """
                    SELECT p.id, p.name, l.decision, l.decided_at, l.key
                    FROM decisions AS l CROSS JOIN profiles AS p
                    WHERE p.key = l.viewer AND l.profile = $1 AND l.decision = $2 AND l.undone_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM decisions AS d
                                      WHERE d.viewer = $1 AND d.profile = l.viewer AND d.undone_at IS NULL)
                      AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = $1 AND b.blocked = l.viewer)
                      AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = l.viewer AND b.blocked = $1)
                      AND \(Self.notSuspended("p.key", executor.dialect))
                    ORDER BY l.decided_at, l.key
                    """, [.int(key), .text(kind.rawValue)])
            }
            return result
        }
    }
}

extension Report: FetchableRow {
    public init(row: some SQLRow) throws {
        self.init(
            reporter: try row.text("reporter"), reported: try row.text("reported"), reason: try row.text("reason"),
            reportedAt: try row.text("reported_at"))
    }
}

extension Liker: FetchableRow {
    public init(row: some SQLRow) throws {
        self.init(
            profile: try row.text("id"), name: try row.text("name"),
            decision: try row.decoded("decision", key: row.int("key")),
            likedAt: try row.text("decided_at"))
    }
}
