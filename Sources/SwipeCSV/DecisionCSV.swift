import SwipeCore
import SwipeStore

extension CSVImport {
    /// A record's fields by column name.
    package struct Fields {
        /// Each known column's field position.
        package let index: [String: Int]
        package let record: CSVRawRecord

        package init(index: [String: Int], record: CSVRawRecord) {
            self.index = index
            self.record = record
        }

        /// The field, trimmed of edge spaces; nil when the column is absent.
        package subscript(_ column: String) -> String? {
            index[column].map { record.string($0).trimmed() }
        }
    }
}

/// The decisions CSV (`viewer,profile,decision,decided_at[,via]`), whatever
/// database it goes into: each row's checks, in the same order and with the
/// same messages on every backend.
package enum DecisionCSV {
    package static let required = ["viewer", "profile", "decision", "decided_at"]
    package static let optional = ["via"]

    /// One checked row; `Key` is the backend's key for a profile id.
    package struct Row<Key> {
        package var viewer: (key: Key, id: String)
        package var profile: (key: Key, id: String)
        package var decision: Decision
        /// Normalised UTC ISO-8601 with milliseconds.
        package var decidedAt: String
        /// `import` when the file does not say.
        package var via: Via

        package init(
            viewer: (key: Key, id: String), profile: (key: Key, id: String), decision: Decision,
            decidedAt: String, via: Via
        ) {
            self.viewer = viewer
            self.profile = profile
            self.decision = decision
            self.decidedAt = decidedAt
            self.via = via
        }
    }

    /// The issue of a row whose `column` (viewer or profile) names no profile.
    package static func unknownProfile(column: String, id: String) -> CSVImport.RowIssue {
        CSVImport.RowIssue(column: column, value: id, message: "no profile has this id")
    }

    /// Checks a record: both ids name profiles (`key` answers nil for an
    /// unknown one), then the decision, the time and `via`.
    package static func parse<Key>(_ fields: CSVImport.Fields, key: (String) throws -> Key?) throws -> Row<Key> {
        func profile(_ column: String) throws -> (key: Key, id: String) {
            let id = fields[column] ?? ""
            guard let found = try key(id) else { throw unknownProfile(column: column, id: id) }
            return (found, id)
        }
        let viewer = try profile("viewer"), profile = try profile("profile")
        let decisionText = fields["decision"] ?? ""
        guard let decision = Decision(name: decisionText) else {
            throw CSVImport.RowIssue(
                column: "decision", value: decisionText, message: "decision must be like, hate (or nope) or superlike")
        }
        let timeText = fields["decided_at"] ?? ""
        guard let decidedAt = Timestamp.normalized(timeText) else {
            throw CSVImport.RowIssue(
                column: "decided_at", value: timeText,
                message: "decided_at must be UTC ISO-8601, e.g. 2026-11-20T23:55:01.123Z")
        }
        let viaText = fields["via"] ?? ""
        guard let via = viaText.isEmpty ? .import : Via(rawValue: viaText.lowercased()) else {
            throw CSVImport.RowIssue(
                column: "via", value: viaText, message: "via must be drag, button, detail or import")
        }
        return Row(viewer: viewer, profile: profile, decision: decision, decidedAt: decidedAt, via: via)
    }

    /// What the ledger's refusal of `row` means for the import: the same
    /// decision already standing at the same time is unchanged (a file
    /// imported twice); another standing decision, a self-decision or a
    /// block between the two is the row's error; anything else is rethrown.
    package static func outcome<Key>(of error: StoreError, _ row: Row<Key>) throws -> CSVImport.RowOutcome {
        switch error {
        case let .alreadyDecided(_, _, standing, standingAt):
            if standing == row.decision && standingAt == row.decidedAt { return .unchanged }
            throw CSVImport.RowIssue(
                column: "profile", value: row.profile.id,
                message: "\(row.viewer.id) already decided \(standing.rawValue) on \(row.profile.id) at \(standingAt)")
        case let .selfDecision(id):
            throw CSVImport.RowIssue(column: "profile", value: id, message: "a viewer cannot decide about themself")
        case .blocked:
            // A bad row like any other (it named no line, and aborted even `--skip-invalid`, before).
            throw CSVImport.RowIssue(column: "profile", value: row.profile.id, message: error.description)
        default:
            throw error
        }
    }
}
