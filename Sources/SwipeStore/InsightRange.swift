import Foundation

extension InsightQuery {
    /// The range a question about `by` periods counts (Documentation/Insights.md):
    /// `until` (a date meaning its whole day), default today; `since`,
    /// default the start of the period 11 periods before `until`'s. Both
    /// `swipe insights` and the REPL's `insights` read their options so.
    public static func range(since: String?, until: String?, by: InsightPeriod, today: Date) -> (
        since: String, until: String
    ) {
        // `until` (a date: the end of its day) is read as a list's `--until` is.
        let given = (try? TimeWindow.parse(since: nil, until: until).get())?.until
        let untilText = given ?? TimeWindow.endOfDay(Timestamp.string(from: today)) ?? Timestamp.string(from: today)
        if let since, let normalized = Timestamp.normalized(since) { return (normalized, untilText) }
        return (defaultSince(untilDay: String(untilText.prefix(10)), by: by), untilText)
    }

    /// The first day of the period 11 periods before the one holding `untilDay`.
    public static func defaultSince(untilDay: String, by: InsightPeriod) -> String {
        let calendar = InsightPeriod.isoCalendar
        let day = Timestamp.date(from: untilDay) ?? Date()
        let start: Date
        switch by {
        case .day: start = day - 11 * 86_400
        case .week:
            let monday = calendar.dateInterval(of: .weekOfYear, for: day)?.start ?? day
            start = monday - 11 * 7 * 86_400
        case .month:
            let first = calendar.dateInterval(of: .month, for: day)?.start ?? day
            start = calendar.date(byAdding: .month, value: -11, to: first) ?? first
        }
        return Timestamp.string(from: start)
    }

    /// What is wrong with a range as given (a malformed date, a reversed
    /// range), in words naming the value and the accepted form; nil when
    /// it is a range. `flag` spells the options as the caller takes them
    /// (`--since` on the command line and in the REPL, `since` in an object).
    public static func rangeProblem(
        since: String?, until: String?, by: InsightPeriod, today: Date, flag: (String) -> String = { "--" + $0 }
    ) -> String? {
        for (name, value) in [("since", since), ("until", until)] {
            if let value, Timestamp.normalized(value) == nil {
                return
                    "\(flag(name)) takes a UTC date or time like 2026-11-20 or 2026-11-20T23:55:01.123Z, not \"\(value)\""
            }
        }
        let range = range(since: since, until: until, by: by, today: today)
        if range.since > range.until {
            return
                "\(flag("since")) (\(range.since)) is after \(flag("until")) (\(range.until)): give them in time order"
        }
        return nil
    }
}
