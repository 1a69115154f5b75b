import Foundation

/// The files of one size under bench-data/: the profiles and decisions CSVs,
/// a template database made from them by `swipe import`, and a working copy
/// of it that benchmarks may write to. Missing files are generated; files
/// appear only when complete (written aside, then renamed).
struct DataSet: Sendable {
    let label: String
    let count: Int
    let directory: String

    var roles: Roles { Roles(count: count) }
    var profilesCSV: String { "\(directory)/profiles-\(label).csv" }
    var decisionsCSV: String { "\(directory)/decisions-\(label).csv" }
    var templateDB: String { "\(directory)/template-\(label).sqlite" }
    var workDB: String { "\(directory)/work-\(label).sqlite" }

    /// `10k`, `100k`, `1M`, or a plain number.
    init(label: String, directory: String) throws {
        let lower = label.lowercased()
        let (digits, scale) =
            lower.hasSuffix("k")
            ? (lower.dropLast(), 1_000)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let number = Int(digits), number * scale >= 1_000 else {
            throw BenchError("size \(label): expected a count of at least 1000, such as 10k, 100k or 1M")
        }
        self.label = label
        self.count = number * scale
        self.directory = directory
    }

    /// Generates whatever is missing and refreshes the working copy.
    func prepare(swipe: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try produce(profilesCSV, "generating \(label) profiles") { try ProfileCSVWriter.write(count: count, to: $0) }
        try produce(decisionsCSV, "generating \(label) decisions") { try DecisionCSVWriter.write(roles: roles, to: $0) }
        try produce(templateDB, "importing \(label) profiles and decisions") { path in
            _ = try ChildProcess.check([swipe, "import", "--db", path, "--quiet", profilesCSV])
            _ = try ChildProcess.check([swipe, "import", "--db", path, "--quiet", "--decisions", decisionsCSV])
            // swipe may exit with committed pages still in the WAL; fold them
            // into the file so the template is one self-contained file to copy.
            try RawDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        DataSet.remove(database: workDB)
        try FileManager.default.copyItem(atPath: templateDB, toPath: workDB)
    }

    private func produce(_ path: String, _ what: String, _ body: (String) throws -> Void) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        log(what + " …")
        let partial = path + ".partial"
        DataSet.remove(database: partial)
        let seconds = try Clock.time { try body(partial) }
        guard rename(partial, path) == 0 else { throw BenchError("cannot rename \(partial)") }
        log("  done in \(duration(seconds))")
    }

    /// Deletes a database file with its WAL and shared-memory files.
    static func remove(database path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}

/// Progress notes on stderr, so stdout holds only the table.
func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
