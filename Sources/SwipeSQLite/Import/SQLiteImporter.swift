import Foundation
import SwipeCSV
import SwipeStore

/// Loads CSV files into the store in one transaction: all rows or none
/// (unless `skipInvalid`), Ctrl-C included. Columns are matched by header
/// name in any order; `SQLiteImporter+Profiles` and `SQLiteImporter+Decisions` give the
/// columns and what a row means.
public struct SQLiteImporter {
    public let store: SQLiteStore
    /// How it runs: the same options every backend's import takes.
    public var options: ImportOptions

    public init(store: SQLiteStore, options: ImportOptions = ImportOptions()) {
        self.store = store
        self.options = options
    }

    /// Import the valid rows and report the others, instead of importing nothing.
    public var skipInvalid: Bool {
        get { options.skipInvalid }
        set { options.skipInvalid = newValue }
    }
    /// Called about every `progressInterval` rows (at most once per batch of
    /// 256, as the writing thread finishes it) and once at the end.
    public var progress: ((ImportProgress) -> Void)? {
        get { options.progress }
        set { options.progress = newValue }
    }
    public var progressInterval: Int {
        get { options.progressInterval }
        set { options.progressInterval = newValue }
    }

    typealias RowIssue = CSVImport.RowIssue
    typealias RowOutcome = CSVImport.RowOutcome

    /// `CSVImport.run` inside one SQLite write transaction. `checkedRows`:
    /// `prepare` and `write` enforce every CHECK of the table written, so
    /// SQLite need not (`SQLiteConnection.bulkWrite`). `rollbackJournal`: leave
    /// WAL for the transaction when no one else has the file open (faster
    /// for big loads; readers wait for it meanwhile).
    func run<Row>(
        path: String, required: [String], optional: [String], checkedRows: Bool, rollbackJournal: Bool,
        makeRow: @escaping () -> Row,
        prepare: @escaping (CSVRawRecord, _ positions: [Int?], inout Row) throws -> Void,
        write:
            @escaping (_ slot: inout ImportPipeline<Row>.Slot, _ index: [String: Int], _ dryRun: Bool) throws ->
            RowOutcome?,
        flush: @escaping () throws -> (inserted: Int, updated: Int, unchanged: Int)
    ) throws -> ImportSummary {
        // The commit's sync would otherwise write every page of a big import.
        // Nudged from the reading thread, which has time to spare: starting
        // the writing costs the calling thread about 2% of the writer's time.
        let writeback = EarlyWriteback(databasePath: store.connection.path)
        return try CSVImport(options: options).run(
            path: path, required: required, optional: optional,
            transaction: { body in
                try store.connection.bulkWrite(checkedByCaller: checkedRows, rollbackJournal: rollbackJournal) {
                    try store.connection.writeTransaction(body)
                }
            },
            makeRow: makeRow,
            prepare: { record, positions, row in
                writeback.wrote()
                try prepare(record, positions, &row)
            },
            write: write, flush: flush)
    }
}
