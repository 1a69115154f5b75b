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
        if case .failure(let problem) = TimeWindow.parse(since: since, until: until) {
            throw ValidationError(problem.description)
        }
    }

    /// The window the options name (`TimeWindow`, as the REPL reads them too).
    var window: TimeWindow { (try? TimeWindow.parse(since: since, until: until).get()) ?? TimeWindow() }

    /// `--since` as a stored timestamp.
    var sinceStamp: String? { window.since }

    /// `--until` as a stored timestamp: a date is the last millisecond of its day.
    var untilStamp: String? { window.until }

    /// Whether the stored time `stamp` is in the range.
    func contains(_ stamp: String) -> Bool { window.contains(stamp) }
}
