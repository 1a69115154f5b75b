import SwipeSession

/// How a query command prints its rows (`--format`).
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned columns for a person: control characters stripped, widths in
    /// terminal columns.
    case table
    /// One JSON array of objects.
    case json
    /// One JSON object per line.
    case jsonl
    /// RFC 4180 CSV with a header row; lists joined with `;` as in the import.
    case csv
}
