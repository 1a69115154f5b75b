import Foundation

/// UTC ISO-8601 timestamps with milliseconds (`2026-11-20T23:55:01.123Z`), the
/// one spelling stored and printed. Being fixed-width, they sort as text.
public enum Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`, to the nearest millisecond (a
    /// `Date` holds a binary fraction, so .123 may be .12299999).
    public static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        let ms = Int(millis - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return spelled(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), millis: ms)
    }

    /// The stored spelling of these fields, zero-padded digit by digit:
    /// `string(from:)` runs once per recorded decision, where Foundation's
    /// `String(format:)` cost more than the rest of the formatting.
    package static func spelled(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millis: Int)
        -> String
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(0x30 + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(0x2D); digits(month, 2); bytes.append(0x2D); digits(day, 2)
        bytes.append(0x54); digits(hour, 2); bytes.append(0x3A); digits(minute, 2); bytes.append(0x3A)
        digits(second, 2); bytes.append(0x2E); digits(millis, 3); bytes.append(0x5A)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.mmmZ`
    /// (UTC) and returns the stored spelling, or nil if `text` is none of these
    /// or not a real date.
    public static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func byte(_ index: Int, is char: Character) -> Bool {
            index < bytes.count && bytes[index] == char.asciiValue!
        }
        guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
            let day = number(8..<10)
        else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0
        if bytes.count == 10 {
            // date only: midnight UTC
        } else if byte(10, is: "T"), let h = number(11..<13), byte(13, is: ":"), let m = number(14..<16),
            byte(16, is: ":"), let s = number(17..<19)
        {
            (hour, minute, second) = (h, m, s)
            if bytes.count == 20, byte(19, is: "Z") {
            } else if bytes.count == 24, byte(19, is: "."), let ms = number(20..<23), byte(23, is: "Z") {
                millis = ms
            } else {
                return nil
            }
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        _ = timegm(&parts)
        // timegm normalises 31 February into March: a changed day means no such date.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return spelled(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millis: millis)
    }

    /// The instant a stored spelling names (`YYYY-MM-DDTHH:MM:SS.mmmZ`), or nil.
    public static func date(from stored: String) -> Date? {
        guard let text = normalized(stored) else { return nil }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int32 {
            bytes[range].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
        }
        var parts = tm()
        parts.tm_year = number(0..<4) - 1900
        parts.tm_mon = number(5..<7) - 1
        parts.tm_mday = number(8..<10)
        parts.tm_hour = number(11..<13)
        parts.tm_min = number(14..<16)
        parts.tm_sec = number(17..<19)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(number(20..<23)) / 1000)
    }
}
