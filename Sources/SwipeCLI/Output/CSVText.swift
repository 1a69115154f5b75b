import SwipeSession

/// RFC 4180 output: a field is quoted when it holds a comma, a quote, a line
/// break or edge spaces, with quotes doubled; lines end in CRLF.
public enum CSVText {
    public static func field(_ text: String) -> String {
        let needsQuotes =
            text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
