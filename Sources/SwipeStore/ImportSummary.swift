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

    public init(file: String) { self.file = file }

    /// The one-line summary of the import.
    public var line: String {
        var parts = ["\(inserted) inserted", "\(updated) updated"]
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        parts.append("\(rejected.count) rejected")
        return "\(file): " + parts.joined(separator: ", ") + " in " + String(format: "%.2f", seconds) + " s"
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
