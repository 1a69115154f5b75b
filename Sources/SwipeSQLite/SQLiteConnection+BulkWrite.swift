import CSQLite
import SwipeStore

extension SQLiteConnection {
    /// Runs `body`, which writes many rows in one transaction, with the
    /// database in rollback-journal mode when no other connection has it open,
    /// and back in WAL afterwards.
    ///
    /// In WAL mode every page of a large transaction is written twice: into
    /// the WAL, then copied into the database by the checkpoint when the last
    /// connection closes. A rollback journal records only the pages that held
    /// data before the transaction, so loading new rows writes each page once
    /// (a million profiles: 3.4 s of SQLite's time instead of 5.5 s). It is
    /// just as atomic: a crash leaves a hot journal that the next open rolls
    /// back. The sync level goes up one step meanwhile, so the promises of
    /// WAL + `synchronous` still hold in rollback mode: NORMAL becomes FULL
    /// (a power cut cannot corrupt), FULL becomes EXTRA (the journal's
    /// deletion, which is the commit, is synced too).
    ///
    /// Leaving WAL needs the database to itself: when another connection has
    /// it open SQLite says SQLITE_BUSY at once, and the import runs in WAL as
    /// before. Connections opened while the rollback journal is in force wait
    /// for the import to commit, readers too (a million profiles take about
    /// 2.5 s here), for up to their busy timeout of 5 s.
    ///
    /// With `checkedByCaller` the table CHECK constraints are not evaluated
    /// (`PRAGMA ignore_check_constraints`): for writers that have already
    /// checked every rule themselves, row by row, with file and line (the
    /// profile importer). The schema's CHECKs still guard every other writer;
    /// the JSON ones alone cost 1.3 s of SQLite's time per million profiles.
    ///
    /// Without `rollbackJournal` the database stays in WAL (the decisions
    /// import: readers never wait for it).
    func bulkWrite<T>(checkedByCaller: Bool, rollbackJournal: Bool = true, _ body: () throws -> T) throws -> T {
        let leftWAL = rollbackJournal && (try? journalMode("PRAGMA journal_mode = DELETE")) == "delete"
        defer {
            if checkedByCaller { try? execute("PRAGMA ignore_check_constraints = OFF") }
            if leftWAL {
                // Busy when another connection opened the file meanwhile: it
                // set WAL again itself, or the next connection opened will.
                _ = try? journalMode("PRAGMA journal_mode = WAL")
                try? execute("PRAGMA synchronous = \(synchronous.rawValue)")
            }
        }
        if leftWAL && synchronous == .full {
            try execute("PRAGMA synchronous = EXTRA")
        } else if leftWAL {
            try execute("PRAGMA synchronous = FULL")
        }
        if checkedByCaller { try execute("PRAGMA ignore_check_constraints = ON") }
        return try body()
    }

    /// Runs a `PRAGMA journal_mode = …` and returns the mode now in force.
    private func journalMode(_ pragma: String) throws -> String? {
        try statement(pragma).bind().first { $0.text(0) }
    }
}
