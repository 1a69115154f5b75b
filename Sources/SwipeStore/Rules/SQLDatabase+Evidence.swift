import Foundation
import SwipeCore

/// A report's evidence (Documentation/Safety.md, "Reports keep their
/// evidence"): what the reported person showed (name, bio, photos) and the
/// pair's last `Report.transcriptLength` messages, as they were when the
/// report was made. It outlives either person's erase for the rule
/// `evidence-days` (default 90), then is deleted, so a harasser cannot wipe
/// it by leaving and `swipe reports --messages` never fails because
/// someone left.
///
/// Kept as a JSON document in `settings` (`evidence.REPORTED_AT.RANDOM`), as
/// reports about erased people are (`erased-report.…`), until a schema
/// version gives them a table; it names people by id, never by key, so no
/// erase reaches it, and no person's export includes it.
struct ReportEvidence: Codable, Hashable {
    var reporter: String
    var reported: String
    var reason: String
    var reportedAt: String
    var name: String
    var bio: String?
    var photos: [String]
    var messages: [Line]

    struct Line: Codable, Hashable {
        var seq: Int
        var sender: String
        var recipient: String
        var text: String
        var sentAt: String
    }

    static let prefix = "evidence."

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    var transcript: [Message] {
        messages.map {
            Message(
                seq: $0.seq, sender: $0.sender, recipient: $0.recipient, text: $0.text, clientID: "", sentAt: $0.sentAt)
        }
    }

    /// Whether it is the evidence of `report` (or of that report kept
    /// about an erased person under a tombstone id).
    func belongs(to report: Report) -> Bool {
        reporter == report.reporter && reportedAt == report.reportedAt && reason == report.reason
    }
}

extension ReportEvidence {
    init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }
}

extension SQLDatabase {
    /// Stores the evidence of the report `reporter` (key `me`) just made
    /// about `reported` (key `them`), inside the report's write, and
    /// deletes evidence past its time (how long is the rule's, read then:
    /// `purgeEvidence`).
    func keepEvidence(reporter: String, me: Int, them: Int, reason: String, at now: String) throws {
        try purgeEvidence(at: now)
        guard let profile = try profile(key: them) else { return }
        let (low, high) = (min(me, them), max(me, them))
        let lines = try executor.all(
            """
            SELECT m.seq, s.id AS sender_id, r.id AS recipient_id, m.body, m.sent_at
            FROM messages AS m JOIN profiles AS s ON s.key = m.sender JOIN profiles AS r ON r.key = m.recipient
            WHERE m.low = $1 AND m.high = $2
            ORDER BY m.seq DESC
            LIMIT $3
            """, [.int(low), .int(high), .int(Report.transcriptLength)]
        ) { row in
            ReportEvidence.Line(
                seq: try row.int("seq"), sender: try row.text("sender_id"), recipient: try row.text("recipient_id"),
                text: try row.text("body"), sentAt: try row.text("sent_at"))
        }.reversed()
        let evidence = ReportEvidence(
            reporter: reporter, reported: profile.id, reason: reason, reportedAt: now,
            name: profile.name, bio: profile.bio, photos: profile.photos, messages: Array(lines))
        try executor.run(
            "INSERT INTO settings (name, value) VALUES ($1, $2)",
            [.text(ReportEvidence.prefix + now + "." + PhotoID.newSecret().prefix(12)), .text(evidence.json)])
    }

    /// Deletes the evidence kept longer than the rule `evidence-days` says
    /// now (inside a write): an operator who shortens it sees older evidence
    /// go at the next report or erase.
    @discardableResult
    func purgeEvidence(at now: String) throws -> Int {
        let days = Double(try readRules().evidenceDays)
        guard let nowDate = Timestamp.date(from: now) else { return 0 }
        var removed = 0
        for (name, evidence) in try storedEvidence() {
            guard let reported = Timestamp.date(from: evidence.reportedAt),
                reported.addingTimeInterval(days * 86_400) < nowDate
            else { continue }
            removed += try executor.run("DELETE FROM settings WHERE name = $1", [.text(name)])
        }
        return removed
    }

    /// Every evidence document kept, by its settings name, oldest report first.
    func storedEvidence() throws -> [(name: String, evidence: ReportEvidence)] {
        try executor.all("SELECT name, value FROM settings WHERE name LIKE 'evidence.%' ORDER BY name", []) { row in
            let name = try row.text("name")
            return ReportEvidence(json: try row.text("value")).map { (name, $0) }
        }.compactMap { $0 }
    }
}
