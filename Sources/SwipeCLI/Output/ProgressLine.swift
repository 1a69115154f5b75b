import SwipeSession

/// The import progress bar's text: a bar, percent of bytes read, rows and rows
/// per second, e.g. `[#########-----------]  45%  12000 rows  8000 rows/s`.
/// The executable draws it on stderr, only when stderr is a terminal.
public enum ProgressLine {
    public static func render(bytesRead: Int, totalBytes: Int, rows: Int, seconds: Double, barWidth: Int = 20) -> String
    {
        let fraction = totalBytes > 0 ? min(1, max(0, Double(bytesRead) / Double(totalBytes))) : 1
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        let percent = Int((fraction * 100).rounded(.down))
        let rate = seconds > 0 ? Int((Double(rows) / seconds).rounded()) : 0
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
        return "[\(bar)] \(percentText)%  \(rows) rows  \(rate) rows/s"
    }
}
