import Foundation
import SwipeCore

/// `swipe erase` (Documentation/PersonalData.md): the person and every row
/// naming them go in one write transaction, on either backend; a crash or a
/// refusal anywhere leaves everything as it was. What names a person is
/// `PersonalData.coverage` (keys) and the settings rows named there (ids).
extension SQLDatabase {
    public func erase(viewer: String, at date: Date? = nil) throws -> Erasure {
        let erasure = try eraseRows(viewer: viewer, at: date)
        scrubAfterErase()
        return erasure
    }

    private func eraseRows(viewer: String, at date: Date?) throws -> Erasure {
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            let key = try requireKey(viewer)
            try executor.lockViewer(key)
            var removed = 0
            let unmatched = try executor.all(
                """
                SELECT p.id FROM matches AS m JOIN profiles AS p ON p.key = CASE WHEN m.low = $1 THEN m.high ELSE m.low END
                WHERE (m.low = $1 OR m.high = $1) AND m.unmatched_at IS NULL
                """, [.int(key)]
            ) { try $0.text("id") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            // Reports about the person keep their reason for moderators,
            // under a tombstone id that names nobody.
            let about = try executor.all(
                """
                SELECT p.id AS reporter, r.reason, r.reported_at FROM reports AS r JOIN profiles AS p ON p.key = r.reporter
                WHERE r.reported = $1 ORDER BY r.key
                """, [.int(key)]
            ) { row in (try row.text("reporter"), try row.text("reason"), try row.text("reported_at")) }
            let tombstone = about.isEmpty ? nil : Self.newTombstone()
            for (index, report) in about.enumerated() {
                try executor.run(
                    "INSERT INTO settings (name, value) VALUES ($1, $2)",
                    [
                        .text(PersonalData.tombstonePrefix + tombstone! + "." + String(index + 1)),
                        .text(JSONText.array([report.0, report.1, report.2, now])),
                    ])
            }
            // The others' counters in rank_stats stop counting the person's
            // standing decisions, as an undo would, without making anyone active.
            try executor.run(
                """
                UPDATE rank_stats SET
                    received = received - (SELECT count(*) FROM decisions AS d
                        WHERE d.viewer = $1 AND d.profile = rank_stats.profile AND d.undone_at IS NULL),
                    received_likes = received_likes - (SELECT count(*) FROM decisions AS d
                        WHERE d.viewer = $1 AND d.profile = rank_stats.profile AND d.undone_at IS NULL AND d.decision <> 'hate')
                WHERE profile IN (SELECT profile FROM decisions WHERE viewer = $1 AND undone_at IS NULL)
                """, [.int(key)])
            try executor.run(
                """
                UPDATE rank_stats SET
                    given = given - (SELECT count(*) FROM decisions AS d
                        WHERE d.profile = $1 AND d.viewer = rank_stats.profile AND d.undone_at IS NULL),
                    given_likes = given_likes - (SELECT count(*) FROM decisions AS d
                        WHERE d.profile = $1 AND d.viewer = rank_stats.profile AND d.undone_at IS NULL AND d.decision <> 'hate')
                WHERE profile IN (SELECT viewer FROM decisions WHERE profile = $1 AND undone_at IS NULL)
                """, [.int(key)])
            // Children before parents: messages reference matches.
            for sql in Self.eraseStatements { removed += try executor.run(sql, [.int(key)]) }
            removed += try executor.run(
                "DELETE FROM settings WHERE name = $1 OR (name = 'last_viewer' AND value = $2)",
                [.text("signin.generation." + viewer), .text(viewer)])
            for made in try tombstonedReports() where made.reporter == viewer {
                removed += try executor.run("DELETE FROM settings WHERE name = $1", [.text(made.setting)])
            }
            removed += try executor.run("DELETE FROM profiles WHERE key = $1", [.int(key)])
            // Evidence of reports outlives the erase (`ReportEvidence`) until its time.
            try purgeEvidence(at: now)
            // One more erasure in `settings('erasures')`, a count that names
            // nobody: what a running `swipe serve` watches to learn, from any
            // process, that someone was erased (`changeMarks().erasures`); it
            // then checks which of the people it holds open are gone.
            try executor.run(
                """
                INSERT INTO settings (name, value) VALUES ('erasures', '1')
                ON CONFLICT (name) DO UPDATE SET value = CAST(CAST(settings.value AS BIGINT) + 1 AS TEXT)
                """, [])
            return Erasure(viewer: viewer, unmatched: unmatched, tombstone: tombstone, rowsRemoved: removed)
        }
    }

    /// Every row naming the person by key, table by table (`$1` the key),
    /// in an order the foreign keys allow; the profile itself goes last.
    static var eraseStatements: [String] {
        [
            "DELETE FROM messages WHERE low = $1 OR high = $1",
            "DELETE FROM matches WHERE low = $1 OR high = $1",
            "DELETE FROM decisions WHERE viewer = $1 OR profile = $1",
            "DELETE FROM feed_cursors WHERE viewer = $1",
            "DELETE FROM liker_cursors WHERE viewer = $1",
            "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
            "DELETE FROM report_resolutions WHERE report IN (SELECT key FROM reports WHERE reporter = $1 OR reported = $1)",
            "DELETE FROM reports WHERE reporter = $1 OR reported = $1",
            "DELETE FROM moderators WHERE profile = $1",
            "DELETE FROM suspensions WHERE profile = $1",
            "DELETE FROM warnings WHERE profile = $1",
            "DELETE FROM flags WHERE profile = $1",
            "DELETE FROM rank_stats WHERE profile = $1",
            "DELETE FROM rank_fit WHERE profile = $1",
            "DELETE FROM photos WHERE profile = $1",
        ]
    }

    /// `erased-` and 12 random hex digits: names nobody, and cannot be
    /// turned back into the id it replaced.
    static func newTombstone() -> String {
        var generator = SystemRandomNumberGenerator()
        return "erased-"
            + (0..<6).map { _ -> String in
                let byte = UInt8.random(in: .min ... .max, using: &generator)
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
    }

    /// Reports about erased people, kept for moderators: `settings` rows
    /// `erased-report.TOMBSTONE.N` holding `[reporter, reason, reported_at,
    /// erased_at]` (in `settings` rather than a table of their own until the
    /// next schema version, so that this needs no migration).
    func tombstonedReports() throws -> [(
        setting: String, reporter: String, reported: String, reason: String, reportedAt: String
    )] {
        let prefix = PersonalData.tombstonePrefix
        return try executor.all(
            "SELECT name, value FROM settings WHERE name LIKE 'erased-report.%'", []
        ) { row -> (String, String, String, String, String)? in
            let name = try row.text("name")
            guard let parts = JSONText.strings(fromArray: try row.text("value")), parts.count >= 3 else { return nil }
            let tombstone = name.dropFirst(prefix.count).split(separator: ".").first.map(String.init) ?? name
            return (name, parts[0], tombstone, parts[1], parts[2])
        }.compactMap { $0 }.sorted { $0.setting.utf8.lexicographicallyPrecedes($1.setting.utf8) }
    }
}
