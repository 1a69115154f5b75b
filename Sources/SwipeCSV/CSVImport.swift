import Foundation
import SwipeStore

/// One CSV import's reading and checking, whatever database it goes into:
/// columns matched by header name in any order, each record checked and
/// encoded on a reading thread (`ImportPipeline`) and handed to the
/// backend's `write` in file order, inside the backend's one transaction,
/// with every bad row reported by file and line. Backends give the columns
/// and what a row means (`ProfileCSV`, `DecisionCSV`) and how it is stored.
public struct CSVImport {
    public var options: ImportOptions

    public init(options: ImportOptions) { self.options = options }

    /// A row's problem, before the importer adds file and line.
    public struct RowIssue: Error {
        public init(column: String? = nil, value: String? = nil, message: String) {
            self.column = column
            self.value = value
            self.message = message
        }
        public var column: String?
        public var value: String?
        public var message: String
    }

    public enum RowOutcome { case inserted, updated, unchanged }

    /// A record must have as many fields as the header.
    package static func checkFieldCount(_ record: CSVRawRecord, header fields: Int) throws {
        guard record.count == fields else {
            throw RowIssue(message: "has \(record.count) fields, the header has \(fields)")
        }
    }

    /// Reads `path` with header columns `required` (all must be present) and
    /// `optional`, inside one write transaction. Each record goes first to
    /// `prepare` on the reading thread (`ImportPipeline`), with the field
    /// position of each of `required + optional` (nil when absent), then to
    /// `write` on this thread, in file order. `write` may keep a row to write
    /// later (answering nil); `flush` writes what it kept and says how many
    /// of those rows were inserted, updated and left unchanged. Once a bad row means nothing
    /// will be committed, `write` is told to check only (`dryRun`), so every
    /// bad row is still reported. `transaction` runs its body in the
    /// backend's one write transaction (rolled back when the body throws:
    /// a bad row, `shouldStop`, a failed write).
    ///
    /// `lateIssues`, for a backend that checks the rows it kept all at once
    /// (PostgreSQL's decisions): called after the last row, before the
    /// import is judged, with whether it is already doomed; the issues it
    /// returns count as those `write` throws, in file order among them.
    ///
    /// Specialized here for the profile import's rows: unspecialized, each
    /// row looked up its slot type's metadata (about 300 instructions).
    @_specialize(exported:true,where Row == ProfileRow)
    package func run<Row>(
        path: String, required: [String], optional: [String],
        transaction: (() throws -> Void) throws -> Void,
        makeRow: @escaping () -> Row,
        prepare: @escaping (CSVRawRecord, _ positions: [Int?], inout Row) throws -> Void,
        write:
            @escaping (_ slot: inout ImportPipeline<Row>.Slot, _ index: [String: Int], _ dryRun: Bool) throws ->
            RowOutcome?,
        flush: @escaping () throws -> (inserted: Int, updated: Int, unchanged: Int),
        lateIssues: ((_ doomed: Bool) throws -> [(line: Int, issue: RowIssue)])? = nil
    ) throws -> ImportSummary {
        let start = ContinuousClock.now
        let reader = try CSVReader(path: path)
        let path = reader.path  // `<stdin>` for `-`
        var summary = ImportSummary(file: path)
        guard let header = try reader.next() else {
            throw ImportFailure(
                issues: [
                    ImportIssue(
                        file: path, line: 1, message: "the file is empty; the header row is required")
                ], total: 1,
                isWholeFile: true)
        }
        let index = try Self.columnIndex(
            header, path: path, required: required, optional: optional, ignoreUnknown: options.ignoreUnknown,
            ignored: &summary.ignoredColumns)
        let positions = (required + optional).map { index[$0] }
        let fileSize = reader.fileSize
        let pipeline = ImportPipeline(reader: reader, fields: header.fields.count, makeRow: makeRow) {
            try prepare($0, positions, &$1)
        }
        defer { pipeline.finish() }
        var issues: [ImportIssue] = []
        var total = 0
        var rows = 0
        do {
            try transaction {
                while var batch = try pipeline.next() {
                    let count = batch.count
                    // The slots through one buffer pointer: this code is not
                    // specialized for `Row`, and reading a field of
                    // `batch.slots[slot]` copied the whole slot (twice a row).
                    try batch.slots.withUnsafeMutableBufferPointer { slots in
                        for slot in 0..<count {
                            if options.shouldStop() { throw ImportInterrupted(file: path) }
                            rows += 1
                            let line = slots[slot].record.line
                            do {
                                if let issue = slots[slot].issue { throw issue }
                                let dryRun = total > 0 && !options.skipInvalid
                                // The slot goes in place, not as a copy: its record's
                                // arrays were last written by the reading thread, and
                                // retaining them costs a cache-line transfer per row.
                                switch try write(&slots[slot], index, dryRun) {
                                case .inserted: summary.inserted += 1
                                case .updated: summary.updated += 1
                                case .unchanged: summary.unchanged += 1
                                case nil: break
                                }
                            } catch let issue as RowIssue {
                                let full = ImportIssue(
                                    file: path, line: line, column: issue.column, value: issue.value,
                                    message: issue.message)
                                total += 1
                                if options.skipInvalid {
                                    summary.rejected.append(full)
                                } else if issues.count < ImportFailure.shownLimit {
                                    issues.append(full)
                                }
                            }
                        }
                    }
                    let bytesRead = batch.bytesRead
                    pipeline.recycle(consume batch)
                    if rows / options.progressInterval != (rows - count) / options.progressInterval {
                        options.progress?(ImportProgress(bytesRead: bytesRead, totalBytes: fileSize, rows: rows))
                    }
                }
                if let late = try lateIssues?(total > 0 && !options.skipInvalid), !late.isEmpty {
                    let full = late.map {
                        ImportIssue(
                            file: path, line: $0.line, column: $0.issue.column, value: $0.issue.value,
                            message: $0.issue.message)
                    }
                    total += full.count
                    // Both lists are in file order; the shown ones stay the first by line.
                    func merged(_ a: [ImportIssue], _ b: [ImportIssue]) -> [ImportIssue] {
                        (a + b).enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
                            .map(\.element)
                    }
                    if options.skipInvalid {
                        summary.rejected = merged(summary.rejected, full)
                    } else {
                        issues = Array(merged(issues, full).prefix(ImportFailure.shownLimit))
                    }
                }
                if total > 0 && !options.skipInvalid { throw ImportFailure(issues: issues, total: total) }
                let kept = try flush()
                summary.inserted += kept.inserted
                summary.updated += kept.updated
                summary.unchanged += kept.unchanged
            }
        } catch  where !(error is ImportInterrupted) && !(error is ImportFailure) && options.shouldStop() {
            // A statement the backend cut short for the stop (`onStopRequest`:
            // a PostgreSQL cancel request) failed with the server's words; to
            // the user it is the stop, and the transaction was rolled back.
            throw ImportInterrupted(file: path)
        }
        options.progress?(ImportProgress(bytesRead: pipeline.bytesRead, totalBytes: fileSize, rows: rows))
        summary.seconds = (ContinuousClock.now - start) / .seconds(1)
        return summary
    }

    package static func columnIndex(
        _ header: CSVRecord, path: String, required: [String], optional: [String]
    ) throws -> [String: Int] {
        var ignored: [String] = []
        return try columnIndex(
            header, path: path, required: required, optional: optional, ignoreUnknown: false, ignored: &ignored)
    }

    /// The field position of each known header column. An unknown column
    /// is refused, naming it and `--ignore-unknown`, or with
    /// `ignoreUnknown` skipped and added to `ignored` (as written).
    package static func columnIndex(
        _ header: CSVRecord, path: String, required: [String], optional: [String], ignoreUnknown: Bool,
        ignored: inout [String]
    ) throws -> [String: Int] {
        var index: [String: Int] = [:]
        var issues: [ImportIssue] = []
        let known = Set(required + optional)
        let names = header.fields.map { $0.trimmed().lowercased() }
        let unknown = names.filter { !known.contains($0) }
        if names.count == 1, let only = names.first, only.contains(";"),
            only.split(separator: ";").map({ String($0).trimmed().lowercased() }).contains(where: { known.contains($0) }
            )
        {
            // `id;name;age`: a spreadsheet's export in a `;` locale.
            throw ImportFailure(
                issues: [
                    ImportIssue(
                        file: path, line: header.line, value: header.fields[0],
                        message: "the header looks ;-separated, but swipe reads comma-separated files "
                            + "(export the file with commas as separators)")
                ], total: 1, isWholeFile: true)
        }
        if !unknown.isEmpty && ignoreUnknown {
            ignored = header.fields.filter { !known.contains($0.trimmed().lowercased()) }
        } else if !unknown.isEmpty {
            issues.append(
                ImportIssue(
                    file: path, line: header.line, column: unknown.joined(separator: ", "),
                    message:
                        "unknown column\(unknown.count == 1 ? "" : "s"); expected \((required + optional).joined(separator: ", ")) "
                        + "(--ignore-unknown skips \(unknown.count == 1 ? "it" : "them"))"
                ))
        }
        for (position, name) in names.enumerated() where known.contains(name) {
            if index[name] != nil {
                issues.append(ImportIssue(file: path, line: header.line, column: name, message: "column appears twice"))
            }
            index[name] = position
        }
        let missing = required.filter { index[$0] == nil }
        if !missing.isEmpty {
            issues.append(
                ImportIssue(
                    file: path, line: header.line, column: missing.joined(separator: ", "),
                    message: "required column\(missing.count == 1 ? " is" : "s are") missing"))
        }
        if !issues.isEmpty { throw ImportFailure(issues: issues, total: issues.count, isWholeFile: true) }
        return index
    }
}
