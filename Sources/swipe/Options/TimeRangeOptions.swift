import ArgumentParser
import Foundation
import SwipeStore

/// `--since T` and `--until T` for the lists (Documentation/Insights.md): a UTC date or
/// time, both inclusive, a date as `--until` meaning its whole day.
struct TimeRangeOptions: ParsableArguments {
    @Option(help: "Only rows at or after this UTC time (2026-11-20 or 2026-11-20T23:55:01.123Z).")
    var since: String?
    @Option(help: "Only rows at or before this UTC time; a date means its whole day.")
    var until: String?

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Timestamp.normalized(value) == nil {
                throw ValidationError(
                    "\(name) takes a UTC time like 2026-11-20 or 2026-11-20T23:55:01.123Z, not \"\(value)\"")
            }
        }
        if let first = sinceStamp, let last = untilStamp, first > last {
            throw ValidationError("--since (\(first)) is after --until (\(last)): give them in time order")
        }
    }

    /// `--since` as a stored timestamp.
    var sinceStamp: String? { since.flatMap(Timestamp.normalized) }

    /// `--until` as a stored timestamp: a date is the last millisecond of its day.
    var untilStamp: String? {
        guard let until, let normalized = Timestamp.normalized(until) else { return nil }
        guard until.count == 10, let start = Timestamp.date(from: normalized) else { return normalized }
        return Timestamp.string(from: start + 86_400 - 0.001)
    }

    /// Whether the stored time `stamp` is in the range.
    func contains(_ stamp: String) -> Bool {
        if let first = sinceStamp, stamp < first { return false }
        if let last = untilStamp, stamp > last { return false }
        return true
    }
}
