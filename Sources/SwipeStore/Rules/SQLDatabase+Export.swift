import Foundation
import SwipeCore

/// `swipe export` (Documentation/PersonalData.md): every row naming the
/// person, section by section, in one read. Each section is one query with
/// its columns listed, so that the document says exactly what is stored,
/// other people named by their ids, never by internal keys.
extension SQLDatabase {
    public func exportPersonalData(viewer: String, at date: Date? = nil) throws -> PersonalExport {
        let exportedAt = Timestamp.string(from: date ?? Date())
        // A write transaction, writing nothing, under the viewer's lock: no
        // write of the viewer's own (a decision, a message, an edit) lands
        // between two sections (on SQLite nothing else does either).
        return try write {
            let key = try requireKey(viewer)
            try executor.lockViewer(key)
            var sections: [PersonalExport.Section] = []
            for query in exportQueries {
                let arguments: [SQLValue] =
                    query.bindsID ? [.text("signin.generation." + viewer), .text(viewer)] : [.int(key)]
                var rows: [[(String, PersonalExport.Value)]] = []
                let sql = query.sql
                try executor.each(sql, arguments) { row in
                    rows.append(
                        try query.columns.map { column in (column.name, try column.kind.read(row, column.name)) })
                    return true
                }
                sections.append(PersonalExport.Section(name: query.section, rows: rows))
            }
            let made = try tombstonedReports().filter { $0.reporter == viewer }.map { report in
                [
                    ("profile", PersonalExport.Value.text(report.reported)), ("reason", .text(report.reason)),
                    ("reported_at", .text(report.reportedAt)),
                ]
            }
            if let index = sections.firstIndex(where: { $0.name == "reports" }) { sections[index].rows += made }
            return PersonalExport(viewer: viewer, exportedAt: exportedAt, sections: sections)
        }
    }

    var exportQueries: [ExportQuery] {
        [
            ExportQuery(
                section: "profile",
                sql: "SELECT \(Self.profileColumns) FROM profiles WHERE key = $1",
                columns: [
                    ("id", .text), ("name", .text), ("age", .int), ("gender", .text), ("city", .text), ("bio", .text),
                    ("photos", .jsonArray), ("interests", .jsonArray), ("lat", .real), ("lon", .real),
                    ("seeking", .list), ("age_min", .int), ("age_max", .int), ("max_km", .real),
                ]),
            ExportQuery(
                section: "decisions",
                sql: """
                    SELECT p.id AS profile, d.decision, d.via, d.decided_at, d.undone_at
                    FROM decisions AS d JOIN profiles AS p ON p.key = d.profile WHERE d.viewer = $1 ORDER BY d.key
                    """,
                columns: [
                    ("profile", .text), ("decision", .text), ("via", .text), ("decided_at", .text),
                    ("undone_at", .text),
                ]),
            ExportQuery(
                section: "matches",
                sql: """
                    SELECT p.id AS profile, m.matched_at, m.unmatched_at, m.expires_at
                    FROM matches AS m JOIN profiles AS p ON p.key = CASE WHEN m.low = $1 THEN m.high ELSE m.low END
                    WHERE m.low = $1 OR m.high = $1 ORDER BY m.matched_at, m.low, m.high
                    """,
                columns: [("profile", .text), ("matched_at", .text), ("unmatched_at", .text), ("expires_at", .text)]),
            ExportQuery(
                section: "messages",
                sql: """
                    SELECT p.id AS profile, CASE WHEN x.sender = $1 THEN 'sent' ELSE 'received' END AS direction,
                           x.seq, x.body, x.sent_at, x.read_at, CASE WHEN x.sender = $1 THEN x.client_id END AS client_id
                    FROM messages AS x JOIN profiles AS p ON p.key = CASE WHEN x.sender = $1 THEN x.recipient ELSE x.sender END
                    WHERE x.low = $1 OR x.high = $1 ORDER BY x.low, x.high, x.seq
                    """,
                columns: [
                    ("profile", .text), ("direction", .text), ("seq", .int), ("body", .text), ("sent_at", .text),
                    ("read_at", .text), ("client_id", .text),
                ]),
            ExportQuery(
                section: "blocks",
                sql: """
                    SELECT p.id AS profile, b.blocked_at FROM blocks AS b JOIN profiles AS p ON p.key = b.blocked
                    WHERE b.blocker = $1 ORDER BY b.blocked_at, p.key
                    """,
                columns: [("profile", .text), ("blocked_at", .text)]),
            ExportQuery(
                section: "reports",
                sql: """
                    SELECT p.id AS profile, r.reason, r.reported_at FROM reports AS r JOIN profiles AS p ON p.key = r.reported
                    WHERE r.reporter = $1 ORDER BY r.key
                    """,
                columns: [("profile", .text), ("reason", .text), ("reported_at", .text)]),
            ExportQuery(
                section: "rank_stats",
                sql: """
                    SELECT given, given_likes, received, received_likes, last_active_at, dealt_since, dealt, dealt_total
                    FROM rank_stats WHERE profile = $1
                    """,
                columns: [
                    ("given", .int), ("given_likes", .int), ("received", .int), ("received_likes", .int),
                    ("last_active_at", .text), ("dealt_since", .text), ("dealt", .int), ("dealt_total", .int),
                ]),
            // The ranking's fit of the person (README "Ranking"): their appeal and generosity, log-odds.
            ExportQuery(
                section: "rank_fit",
                sql: "SELECT appeal, generosity FROM rank_fit WHERE profile = $1",
                columns: [("appeal", .real), ("generosity", .real)]),
            // Photos (Documentation/Photos.md): each stored photo with its
            // bytes (base64), under the path the `photos` list names it by.
            ExportQuery(
                section: "photos",
                sql: """
                    SELECT '/photos/' || id AS path, media_type, sha256, byte_size, created_at, bytes
                    FROM photos WHERE profile = $1 ORDER BY key
                    """,
                columns: [
                    ("path", .text), ("media_type", .text), ("sha256", .text), ("byte_size", .int),
                    ("created_at", .text), ("bytes", .base64),
                ]),
            // Moderation (Documentation/Moderation.md): the person's own
            // role, suspension and warnings; flags about them are withheld.
            ExportQuery(
                section: "moderation",
                sql: """
                    SELECT 'moderator' AS kind, granted_at AS at, NULL AS ends_at, '' AS reason, NULL AS acknowledged_at
                    FROM moderators WHERE profile = $1
                    UNION ALL
                    SELECT 'suspension', banned_at, ends_at, reason, NULL FROM suspensions WHERE profile = $1
                    UNION ALL
                    SELECT 'warning', warned_at, NULL, reason, acknowledged_at FROM warnings WHERE profile = $1
                    ORDER BY 2, 1
                    """,
                columns: [
                    ("kind", .text), ("at", .text), ("ends_at", .text), ("reason", .text), ("acknowledged_at", .text),
                ]),
            ExportQuery(
                section: "feed_positions",
                sql: """
                    SELECT 'feed' AS kind, after_key, NULL AS after_at FROM feed_cursors WHERE viewer = $1
                    UNION ALL
                    SELECT decision AS kind, after_key, after_at FROM liker_cursors WHERE viewer = $1
                    ORDER BY kind
                    """,
                columns: [("kind", .text), ("after_key", .int), ("after_at", .text)]),
            ExportQuery(
                section: "settings",
                sql: """
                    SELECT name, value FROM settings
                    WHERE name = $1 OR (name = 'last_viewer' AND value = $2) ORDER BY name
                    """,
                columns: [("name", .text), ("value", .text)], bindsID: true),
        ]
    }
}

/// One section's query: `$1` is the person's key, or when `bindsID`
/// the name of their sign-in generation setting, and `$2` their id.
struct ExportQuery {
    var section: String
    var sql: String
    var columns: [(name: String, kind: PersonalExport.Kind)]
    var bindsID = false
}

extension PersonalExport {
    /// How a stored column is read into the document.
    public enum Kind: Sendable {
        case text, int, real
        /// A stored JSON array of strings (`photos`, `interests`).
        case jsonArray
        /// A stored `;`-separated list (`seeking`).
        case list
        /// Stored bytes (a photo), written as base64 text.
        case base64

        func read(_ row: some SQLRow, _ name: String) throws -> Value {
            // A NULL list (`seeking`: everyone) is the empty list, as `Profile` reads it.
            if try row.isNull(name) { return self == .list ? .strings([]) : .null }
            switch self {
            case .text: return .text(try row.text(name))
            case .int: return .int(try row.int(name))
            case .real: return .real(try row.double(name))
            case .jsonArray: return .strings(JSONText.strings(fromArray: try row.text(name)) ?? [])
            case .list: return .strings(try row.text(name).split(separator: ";").map(String.init))
            case .base64: return .text(Data(try row.blob(name)).base64EncodedString())
            }
        }
    }

}
