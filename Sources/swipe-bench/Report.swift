/// One line of the results table: what swipe did, what it was compared with,
/// the ratio and the target for it.
struct ReportRow {
    var benchmark: String
    var swipe: String
    var baseline: String = ""
    /// swipe / baseline in the sense the target is written (time or throughput).
    var ratio: Double?
    var target: String = ""
    /// Whether `ratio` meets `target`; nil for rows without a target.
    var met: Bool?
}

/// The rows gathered so far, printed as a Markdown table.
struct Report {
    private(set) var rows: [ReportRow] = []

    mutating func add(_ row: ReportRow) {
        rows.append(row)
        print(Report.line(row))
    }

    mutating func add(_ more: [ReportRow]) { more.forEach { add($0) } }

    static let header = """
        | benchmark | swipe | baseline | ratio | target | met |
        |---|---|---|---|---|---|
        """

    static func line(_ row: ReportRow) -> String {
        let ratio = row.ratio.map { format($0, digits: 2) + "×" } ?? ""
        let met = row.met.map { $0 ? "yes" : "**no**" } ?? ""
        return "| \(row.benchmark) | \(row.swipe) | \(row.baseline) | \(ratio) | \(row.target) | \(met) |"
    }

    var markdown: String { ([Report.header] + rows.map(Report.line)).joined(separator: "\n") }
}

/// Number formatting for the table.
func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

/// A duration in the unit that reads best.
func duration(_ seconds: Double) -> String {
    if seconds >= 1 { return format(seconds, digits: 2) + " s" }
    if seconds >= 1e-3 { return format(seconds * 1e3, digits: 2) + " ms" }
    return format(seconds * 1e6, digits: 1) + " µs"
}

func megabytes(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576, digits: 1) + " MB" }
