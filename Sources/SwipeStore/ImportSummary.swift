import Foundation

/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    public var file: String
    public var inserted = 0
    public var updated = 0
    /// Rows already in the database as they are (a re-imported decision).
    public var unchanged = 0
    /// Rows left out when invalid rows are skipped, each with its reason.
    public var rejected: [ImportIssue] = []
    /// Header columns skipped as unknown (`ImportOptions.ignoreUnknown`), as written.
    public var ignoredColumns: [String] = []
    public var seconds: Double = 0
    /// The genders and sought genders of a profiles import that filled an
    /// empty table, so the check after it needs no scan; nil otherwise.
    public var genders: ImportedGenders?

    public init(file: String) { self.file = file }

    /// The one-line summary of the import.
    public var line: String {
        var parts = ["\(inserted) inserted", "\(updated) updated"]
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        parts.append("\(rejected.count) rejected")
        return "\(file): " + parts.joined(separator: ", ") + " in " + String(format: "%.2f", seconds) + " s"
    }
}

/// The genders a profiles import stored (`lower(trim(gender))`, with how many
/// have each) and the genders their lists seek (`Discovery.seeking`).
public struct ImportedGenders: Hashable, Sendable {
    public var counts: [String: Int]
    public var sought: Set<String>

    public init(counts: [String: Int], sought: Set<String>) {
        self.counts = counts
        self.sought = sought
    }

    /// `counts` as `DiscoveryReader.genderCounts` lists them: by gender, in
    /// byte order (SQL's `ORDER BY` on text).
    public var present: [(gender: String, count: Int)] {
        counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }
}

/// How far an import has got, for a progress bar.
public struct ImportProgress: Hashable, Sendable {
    public var bytesRead: Int
    public var totalBytes: Int
    public var rows: Int

    public init(bytesRead: Int, totalBytes: Int, rows: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.rows = rows
    }
}
