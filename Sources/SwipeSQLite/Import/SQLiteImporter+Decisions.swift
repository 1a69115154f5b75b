import SwipeCSV
import SwipeCore
import SwipeStore

extension SQLiteImporter {
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
            path: path, required: DecisionCSV.required, optional: DecisionCSV.optional,
            checkedRows: false, rollbackJournal: false, makeRow: {}, prepare: { _, _, _ in },
            write: { slot, index, _ in
                try importDecision(CSVImport.Fields(index: index, record: slot.record), write: true)
            },
            flush: { (0, 0, 0) })
    }

    private func importDecision(_ fields: CSVImport.Fields, write: Bool) throws -> RowOutcome {
        let row = try DecisionCSV.parse(fields) { try store.profileKey(id: $0) }
        guard write else { return .inserted }
        do {
            _ = try store.recordLocked(
                viewer: row.viewer, profile: row.profile, decision: row.decision, via: row.via, decidedAt: row.decidedAt
            )
            return .inserted
        } catch let error as StoreError {
            return try DecisionCSV.outcome(of: error, row)
        }
    }
}
