import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe insights`: the market (or one person, or one city) per period
/// (Documentation/Insights.md).
struct Insights: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decisions, matches and conversations per day, week or month (Documentation/Insights.md).")

    /// `--format`: the list formats, and a bar chart of `--measure`.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table, json, jsonl, csv, chart
    }

    @OptionGroup var database: DatabaseOptions
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp("Only this person's own decisions, matches and conversations.", valueName: "PROFILE_ID"))
    var person: String?
    @Option(help: "The first UTC day (or time) counted (2026-11-20); default: 12 periods before --until.")
    var since: String?
    @Option(help: "The last UTC day (or time) counted, inclusive (2026-11-27); default: today.")
    var until: String?
    @Option(help: "The period of a row: day (UTC), week (ISO, Monday first) or month.")
    var by: InsightPeriod = .day
    @Option(help: ArgumentHelp("Only the people whose profile's city is exactly this.", valueName: "CITY"))
    var city: String?
    @Option(help: "Output format: table, json (one array), jsonl (one object per line), csv or chart.")
    var format: Format = .table
    @Option(help: ArgumentHelp("The key --format chart draws (default matches).", valueName: "KEY"))
    var measure: String = "matches"

    func validate() throws {
        if let problem = InsightQuery.rangeProblem(since: since, until: until, by: by, today: Date()) {
            throw ValidationError(problem)
        }
        if !InsightRow.measures.contains(measure) {
            throw ValidationError(
                "--measure takes one of \(InsightRow.measures.joined(separator: ", ")), not \"\(measure)\"")
        }
    }

    func range(today: Date) -> (since: String, until: String) {
        InsightQuery.range(since: since, until: until, by: by, today: today)
    }

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let range = self.range(today: Date())
            let rows = try store.insights(
                InsightQuery(since: range.since, until: range.until, by: by, viewer: person, city: city))
            if format == .chart {
                let width = Terminal.columns ?? ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
                guard let lines = InsightChart.lines(rows: rows, measure: measure, width: width) else {
                    var stderr = StandardError()
                    stderr.write(
                        "swipe: no data to chart: \(measure) has no value above 0 in any \(by.rawValue) from "
                            + "\(range.since.prefix(10)) to \(range.until.prefix(10)) "
                            + "(try another --measure, or a wider --since/--until)\n")
                    throw ExitCode(ExitStatus.usage)
                }
                var out = StandardOutput()
                for line in lines { out.write(line + "\n") }
                return
            }
            var out = StandardOutput()
            var writer = RecordWriter(
                format: OutputFormat(rawValue: format.rawValue) ?? .table, columns: InsightRow.keys,
                forTerminal: Terminal.stdoutIsTerminal)
            for row in rows {
                writer.write(Self.cells(row), to: &out)
                try out.throwIfFailed()
            }
            writer.finish(to: &out)
        }
    }

    static func cells(_ row: InsightRow) -> [Cell] {
        func real(_ value: Double?) -> Cell { value.map(Cell.real) ?? Cell.null }
        return [
            .text(row.period), .int(row.active), .int(row.likes), .int(row.superlikes), .int(row.hates),
            .int(row.matches), real(row.likeRate), real(row.matchesPer100Likes), .int(row.conversations),
            .int(row.replied), real(row.medianHoursToFirstMessage), real(row.exposureGini),
        ]
    }
}

extension InsightPeriod: ExpressibleByArgument {}

/// `swipe insights --format chart`: one line per period, the period, a bar
/// as long as the value is to the largest, and the value, in `width` columns.
enum InsightChart {
    /// The chart's lines, or nil when no period has a value above 0 (nothing to draw).
    static func lines(rows: [InsightRow], measure: String, width: Int) -> [String]? {
        let values = rows.map { $0.value(of: measure) }
        guard let largest = values.compactMap({ $0 }).max(), largest > 0 else { return nil }
        let numbers = values.map { value in value.map(number) ?? "–" }
        let labelWidth = rows.map { $0.period.count }.max() ?? 0
        let numberWidth = numbers.map(\.count).max() ?? 0
        // "PERIOD │BAR NUMBER": the bar gets what is left, at least one column.
        let barWidth = max(1, width - labelWidth - 2 - 1 - numberWidth)
        var lines = [String("\(measure), one bar per period (largest \(number(largest)))".prefix(width))]
        for (index, row) in rows.enumerated() {
            let length = values[index].map { Int(($0 / largest * Double(barWidth)).rounded()) } ?? 0
            let bar = String(repeating: "█", count: length) + String(repeating: " ", count: barWidth - length)
            let label = row.period.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            let line = label + " │" + bar + " " + numbers[index]
            lines.append(line.count > width ? String(line.prefix(width)) : line)
        }
        return lines
    }

    /// A value as printed beside its bar: whole numbers bare, others to two decimals.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.2f", value)
    }
}
