import Foundation
import SwipeStore

extension Command {
    /// `insights [--by day|week|month] [--since D] [--until D] [--all]`:
    /// each option once, dates checked as `swipe insights` checks them.
    static func parseInsights(_ arguments: [String], fail: (String) -> CommandError) throws(CommandError)
        -> InsightsInput
    {
        let usage = "insights [--by day|week|month] [--since D] [--until D] [--all], e.g. insights --by week"
        var input = InsightsInput()
        var seen: Set<String> = []
        var words = arguments[...]
        while let word = words.popFirst() {
            let option = word.lowercased()
            guard ["--by", "--since", "--until", "--all"].contains(option) else {
                throw fail("insights does not take \"\(word)\": \(usage)")
            }
            guard seen.insert(option).inserted else { throw fail("insights: \(option) is given twice; \(usage)") }
            if option == "--all" {
                input.all = true
                continue
            }
            guard let value = words.popFirst() else { throw fail("insights: \(option) needs a value; \(usage)") }
            switch option {
            case "--by":
                guard let period = InsightPeriod(rawValue: value.lowercased()) else {
                    throw fail("insights: --by takes day, week or month (got \"\(value)\")")
                }
                input.by = period
            case "--since": input.since = value
            default: input.until = value
            }
        }
        try checkRange(input, fail: fail)
        return input
    }

    /// A malformed date or a reversed range is refused before anything runs.
    static func checkRange(
        _ input: InsightsInput, fail: (String) -> CommandError,
        flag: (String) -> String = {
            "--" + $0
        }
    ) throws(CommandError) {
        if let problem = InsightQuery.rangeProblem(
            since: input.since, until: input.until, by: input.by, today: Date(), flag: flag)
        {
            throw fail("insights: " + problem)
        }
    }

    /// The lists that take `--since` and `--until`.
    static let windowed: Set<ReplVerb> = [.history, .matches, .likes, .inbox]

    /// `--since D` and `--until D` among a list's words: the window and the
    /// other words; nil when neither is there.
    static func timeWindow(_ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError)
        throws(CommandError) -> (TimeWindow, [String])?
    {
        var since: String?, until: String?, rest: [String] = []
        var words = arguments[...]
        while let word = words.popFirst() {
            let option = word.lowercased()
            guard option == "--since" || option == "--until" else {
                rest.append(word)
                continue
            }
            guard let value = words.popFirst() else {
                throw fail(
                    "\(verb.rawValue): \(option) needs a date or time, e.g. \(verb.rawValue) \(option) 2026-11-20")
            }
            if option == "--since" { since = value } else { until = value }
        }
        guard since != nil || until != nil else { return nil }
        switch TimeWindow.parse(since: since, until: until) {
        case .success(let window): return (window, rest)
        case .failure(let problem): throw fail("\(verb.rawValue): \(problem)")
        }
    }
}
