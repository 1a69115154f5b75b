import Foundation
import SwipeCSV
import SwipeCore
import SwipeStore

/// `swipe import` into PostgreSQL: the same files, checks, messages, counts
/// and exit codes as into SQLite (README "Profiles CSV"), because the
/// reading and checking are the same code (`CSVImport`, `ProfileCSV`,
/// `DecisionCSV`); only the storing differs. Each import is one
/// transaction: a bad row (unless `skipInvalid`), `shouldStop`, a lost
/// connection or a killed process leaves the database as it was.
///
/// The rows go to the server with COPY into a temporary table (or, for a
/// first profile import, straight into `profiles`) and are then written by
/// a few set-based statements (`ProfileLoader`, `DecisionLoader`).
///
/// One difference the server imposes: PostgreSQL text cannot hold a NUL
/// character, so a profile row with one in any text is refused, naming its
/// line and column (SQLite stores it verbatim). A decisions row naming an
/// id with a NUL names no profile on PostgreSQL.
public enum PostgresImport {
    /// Loads a profiles CSV (`-`: standard input). `schema`: the text of
    /// schema.postgres.sql, applied first, in the import's transaction, when
    /// the database has no swipe schema yet (a failed first import then
    /// leaves no tables behind).
    public static func profiles(
        connection: PGConnection, path: String, options: ImportOptions, schema: String? = nil
    ) throws -> ImportSummary {
        var loader: ProfileLoader?
        /// The schema came in this import's transaction: `profiles` is its own.
        var madeSchema = false
        let seen = ProfileCSV.SeenIDs(fileSize: fileSize(path), rereading: path)
        // Photo files are read on the reading thread, their ids made with the
        // database's photo secret (a new one, stored by the import, if none:
        // a first import has no settings table yet).
        // (Read before the transaction: on a database without the table the
        // failed statement aborts nothing.)
        let stored =
            (try? connection.scalarInt("SELECT CASE WHEN to_regclass('settings') IS NULL THEN 0 ELSE 1 END")) == 1
            ? try? connection.scalarText("SELECT value FROM settings WHERE name = 'photo_secret'") : nil
        let photos = ProfilePhotos(csvPath: path, secret: (stored ?? nil) ?? PhotoID.newSecret())
        var fileHasPhotos = false
        // What the rows hold of genders: after a first import, the genders
        // check needs no scans of the table (`GenderTally`, as on SQLite).
        let tally = GenderTally()
        var summary = try CSVImport(options: options).run(
            path: path, required: ProfileCSV.Column.required, optional: ProfileCSV.Column.optional,
            transaction: { body in
                try transaction(
                    connection, schema: schema, options: options, abort: { loader?.abort() },
                    madeSchema: { madeSchema = true }, body)
            },
            makeRow: ProfileRow.init,
            prepare: { record, positions, row in
                try ProfileCSV.encode(record, positions: positions, into: &row, photos: photos)
                try seen.insert(
                    row, line: record.line, recordBytes: record.bytes.count,
                    idField: positions[ProfileCSV.Column.id.rawValue])
                tally.note(row)
            },
            write: { slot, index, dryRun in
                fileHasPhotos = index["photos"] != nil
                do {
                    if dryRun {
                        loader?.discard()
                        try ProfileLoader.checkNoNUL(slot.row)
                        return .inserted
                    }
                    if loader == nil {
                        loader = ProfileLoader(
                            connection: connection, fileColumns: Set(index.keys), tableIsNew: madeSchema)
                        try loader!.begin()
                    }
                    try loader!.add(slot.row, line: slot.record.line)
                    photos.note(line: slot.record.line, profile: slot.row.text(.id) ?? "", slot.row.photoPending)
                } catch let refused as ProfileLoader.NULInText {
                    throw CSVImport.RowIssue(
                        column: refused.column, value: refused.value,
                        message: "\(refused.column) holds a NUL character, which PostgreSQL cannot store")
                }
                return nil
            },
            flush: {
                let interrupted = interruption(path, options)
                try interrupted()
                let counts = try loader?.finish(checking: interrupted) ?? (0, 0, 0)
                try interrupted()
                try photos.finish(file: path, fileHasPhotos: fileHasPhotos, on: connection)
                return counts
            },
            lateIssues: { doomed in
                // A partial file: its new ids are refused, by line, once the COPY ended.
                guard !doomed, let loader, !loader.missing.isEmpty else { return [] }
                return try loader.newIDs().map {
                    (line: $0.line, issue: ProfileCSV.newProfileIssue(id: $0.id, missing: loader.missing))
                }
            })
        // The table was empty and now holds exactly the rows tallied.
        if loader?.intoEmptyTable == true, summary.inserted == tally.rows, summary.updated == 0,
            summary.unchanged == 0
        {
            summary.genders = tally.genderSummary
        }
        return summary
    }

    /// Loads a decisions CSV (`viewer,profile,decision,decided_at[,via]`).
    /// Every row is checked, against the database and the rows before it,
    /// even once the import is doomed: the same rows are refused, with the
    /// same messages, as by SQLite's row-by-row ledger.
    public static func decisions(
        connection: PGConnection, path: String, options: ImportOptions, schema: String? = nil
    ) throws -> ImportSummary {
        var loader: DecisionLoader?
        /// The rows whose decision, time or via is malformed: the problem
        /// to report if both ids turn out to name profiles.
        var malformed: [Int: CSVImport.RowIssue] = [:]
        var checked = DecisionLoader.Outcome()
        return try CSVImport(options: options).run(
            path: path, required: DecisionCSV.required, optional: DecisionCSV.optional,
            transaction: { body in
                try transaction(connection, schema: schema, options: options, abort: { loader?.abort() }, body)
            },
            makeRow: {}, prepare: { _, _, _ in },
            write: { slot, index, _ in
                if loader == nil {
                    loader = DecisionLoader(connection: connection)
                    try loader!.begin()
                }
                let fields = CSVImport.Fields(index: index, record: slot.record)
                let line = slot.record.line
                // Every id counts as known here; the server finds the unknown ones.
                var decision: (Decision, String, Via)?
                do {
                    let row = try DecisionCSV.parse(fields, key: { $0 })
                    decision = (row.decision, row.decidedAt, row.via)
                } catch let issue as CSVImport.RowIssue {
                    malformed[line] = issue
                }
                try loader!.add(
                    line: line, viewer: fields["viewer"] ?? "", profile: fields["profile"] ?? "", decision: decision)
                return nil
            },
            flush: {
                let interrupted = interruption(path, options)
                try interrupted()
                try loader?.write()
                try interrupted()
                return (checked.inserted, 0, checked.unchanged)
            },
            lateIssues: { _ in
                try interruption(path, options)()
                checked = try loader?.check() ?? DecisionLoader.Outcome()
                return try checked.refusals.map { (line: $0.line, issue: try issue(for: $0, malformed: malformed)) }
            })
    }

    /// The row issue the ledger's check gives for `refusal`: the same
    /// words, from the same code (`DecisionCSV`), as on SQLite.
    static func issue(for refusal: DecisionLoader.Refusal, malformed: [Int: CSVImport.RowIssue]) throws
        -> CSVImport.RowIssue
    {
        let viewer = refusal.viewer ?? "", profile = refusal.profile ?? ""
        func ledger(_ error: StoreError, _ decision: Decision = .like, _ decidedAt: String = "") throws
            -> CSVImport.RowIssue
        {
            let row = DecisionCSV.Row(
                viewer: (key: viewer, id: viewer), profile: (key: profile, id: profile), decision: decision,
                decidedAt: decidedAt, via: .import)
            do {
                _ = try DecisionCSV.outcome(of: error, row)
            } catch let issue as CSVImport.RowIssue {
                return issue
            }
            throw PostgresError(
                kind: .client, message: "line \(refusal.line): \(error) was counted as refused, and is not")
        }
        switch refusal.problem {
        case .unknownViewer: return DecisionCSV.unknownProfile(column: "viewer", id: viewer)
        case .unknownProfile: return DecisionCSV.unknownProfile(column: "profile", id: profile)
        case .malformed:
            guard let issue = malformed[refusal.line] else {
                throw PostgresError(
                    kind: .client, message: "line \(refusal.line) was sent as malformed, with no issue kept")
            }
            return issue
        case .selfDecision: return try ledger(.selfDecision(viewer))
        case .blocked: return try ledger(.blocked(viewer: viewer, profile: profile))
        case let .conflict(decision, decidedAt, standing, standingAt):
            return try ledger(
                .alreadyDecided(viewer: viewer, profile: profile, decision: standing, decidedAt: standingAt), decision,
                decidedAt)
        }
    }

    /// Runs `body` in one transaction, applying `schema` first when the
    /// database has none (then calling `madeSchema`); `abort` ends a COPY
    /// still open before the rollback (a connection in COPY mode takes no
    /// other command).
    ///
    /// A stop requested meanwhile (`options.onStopRequest`) sends the server
    /// a cancel request, so a statement already running (the COPY, the
    /// UPDATE and INSERT after it, a wait for another session's lock) ends
    /// at once; the import rolls back, and `CSVImport` reports the stop
    /// (`ImportInterrupted`), not the server's "canceling statement".
    private static func transaction(
        _ connection: PGConnection, schema: String?, options: ImportOptions, abort: () -> Void,
        madeSchema: () -> Void = {}, _ body: () throws -> Void
    ) throws {
        let canceller = try connection.canceller()
        try connection.transaction {
            // Withdrawn before COMMIT: a stop during the commit is too late to cancel.
            let withdraw = options.onStopRequest { canceller.cancel() }
            defer { withdraw() }
            do {
                if let schema,
                    try connection.scalarInt(
                        "SELECT CASE WHEN to_regclass('schema_version') IS NULL THEN 1 ELSE 0 END") == 1
                {
                    // schema.postgres.sql: a constant text, checked by SchemaTests.
                    try connection.execute(schema)
                    madeSchema()
                } else {
                    try PostgresSchema.bringUpToDate(connection)
                }
                try body()
            } catch {
                abort()
                throw error
            }
        }
    }

    /// Throws `ImportInterrupted` when `options.shouldStop` says so: checked
    /// between the statements that write what the COPY brought (the rows'
    /// loop checks it before each row), so a Ctrl-C then still rolls back.
    /// A statement already running is cut short by the cancel request that
    /// `transaction` registers.
    private static func interruption(_ path: String, _ options: ImportOptions) -> () throws -> Void {
        {
            if options.shouldStop() {
                throw ImportInterrupted(file: path == CSVReader.standardInput ? CSVReader.standardInputName : path)
            }
        }
    }

    private static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
