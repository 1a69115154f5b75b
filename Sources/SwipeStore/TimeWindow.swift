import Foundation

/// `--since` and `--until` of a list (`history`, `matches`, `likes`,
/// `inbox`): UTC times, a date meaning its whole day at `until`, either
/// open. The command line and the REPL read them the same way.
public struct TimeWindow: Hashable, Sendable {
    /// The first stored time counted, nil for no lower bound.
    public var since: String?
    /// The last stored time counted, nil for no upper bound.
    public var until: String?

    /// The window `since` and `until` name, as typed; nil with what is
    /// wrong (the value and the accepted form, or a reversed range) when
    /// they are not one. `flag` spells an option as the caller takes it.
    public static func parse(since: String?, until: String?, flag: (String) -> String = { "--" + $0 }) -> Result<
        TimeWindow, TimeWindowProblem
    > {
        for (name, value) in [("since", since), ("until", until)] {
            if let value, Timestamp.normalized(value) == nil {
                return .failure(
                    TimeWindowProblem(
                        description:
                            "\(flag(name)) takes a UTC time like 2026-11-20 or 2026-11-20T23:55:01.123Z, not \"\(value)\""
                    ))
            }
        }
        var window = TimeWindow(since: since.flatMap(Timestamp.normalized))
        if let until, let normalized = Timestamp.normalized(until) {
            window.until = until.count == 10 ? endOfDay(normalized) ?? normalized : normalized
        }
        if let first = window.since, let last = window.until, first > last {
            return .failure(
                TimeWindowProblem(
                    description:
                        "\(flag("since")) (\(first)) is after \(flag("until")) (\(last)): give them in time order"
                ))
        }
        return .success(window)
    }

    public init(since: String? = nil, until: String? = nil) {
        self.since = since
        self.until = until
    }

    /// The last millisecond of the UTC day `stamp` falls in.
    public static func endOfDay(_ stamp: String) -> String? {
        Timestamp.date(from: String(stamp.prefix(10))).map { Timestamp.string(from: $0 + 86_400 - 0.001) }
    }

    /// Whether the stored time `stamp` is in the window.
    public func contains(_ stamp: String) -> Bool {
        if let since, stamp < since { return false }
        if let until, stamp > until { return false }
        return true
    }
}

/// Why `--since`/`--until` are not a window, in words.
public struct TimeWindowProblem: Error, CustomStringConvertible, Sendable {
    public var description: String
}
