import SwipeCore

extension Importer {
    /// Imports past decisions: `viewer`, `profile`, `decision`, `decided_at`
    /// required, `via` optional (default `import`: the file did not say how). Each goes through the
    /// ledger, so matches are made as the decisions are loaded. A decision
    /// already standing with the same kind and time counts as unchanged (so a
    /// file can be imported twice); a different standing one is an error.
    ///
    /// Every row is written even once the import is doomed (a bad row
    /// without `skipInvalid`): whether a row conflicts depends on the rows
    /// before it, so only writing them all (and rolling back) finds and
    /// counts every conflict, the same in both modes. The database stays in
    /// WAL meanwhile, so readers never wait for a decisions import.
    public func importDecisions(path: String) throws -> ImportSummary {
        try run(
            path: path, required: ["viewer", "profile", "decision", "decided_at"], optional: ["via"],
            checkedRows: false, rollbackJournal: false, makeRow: {}, prepare: { _, _, _ in },
            write: { slot, index, _ in
                try importDecision(Fields(index: index, record: slot.record), write: true)
            },
            flush: { (0, 0, 0) })
    }

    /// A record's fields by column name.
    struct Fields {
        /// Each known column's field position.
        let index: [String: Int]
        let record: CSVRawRecord

        /// The field, trimmed of edge spaces; nil when the column is absent.
        subscript(_ column: String) -> String? {
            index[column].map { record.string($0).trimmed() }
        }
    }

    private func importDecision(_ fields: Fields, write: Bool) throws -> RowOutcome {
        func key(_ column: String) throws -> (key: Int, id: String) {
            let id = fields[column] ?? ""
            guard let key = try store.profileKey(id: id) else {
                throw RowIssue(column: column, value: id, message: "no profile has this id")
            }
            return (key, id)
        }
        let viewer = try key("viewer"), profile = try key("profile")
        let decisionText = fields["decision"] ?? ""
        guard let decision = Decision(name: decisionText) else {
            throw RowIssue(column: "decision", value: decisionText, message: "decision must be like, hate (or nope) or superlike")
        }
        let timeText = fields["decided_at"] ?? ""
        guard let decidedAt = Timestamp.normalized(timeText) else {
            throw RowIssue(
                column: "decided_at", value: timeText, message: "decided_at must be UTC ISO-8601, e.g. 2026-11-20T23:55:01.123Z")
        }
        let viaText = fields["via"] ?? ""
        guard let via = viaText.isEmpty ? .import : Via(rawValue: viaText.lowercased()) else {
            throw RowIssue(column: "via", value: viaText, message: "via must be drag, button, detail or import")
        }
        guard write else { return .inserted }
        do {
            _ = try store.recordInTransaction(
                viewer: viewer, profile: profile, decision: decision, via: via, decidedAt: decidedAt)
            return .inserted
        } catch StoreError.alreadyDecided(_, _, let standing, let standingAt) {
            if standing == decision && standingAt == decidedAt { return .unchanged }
            throw RowIssue(
                column: "profile", value: profile.id,
                message: "\(viewer.id) already decided \(standing.rawValue) on \(profile.id) at \(standingAt)")
        } catch StoreError.selfDecision(let id) {
            throw RowIssue(column: "profile", value: id, message: "a viewer cannot decide about themself")
        }
    }
}
