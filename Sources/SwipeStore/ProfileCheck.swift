import SwipeCore

/// A profile column's value refused by the column's rule: the column, the
/// value as given, and the rule in words. The importer reports it with the
/// file and line (`CSVImport.RowIssue`); `me set` as it is.
public struct ProfileValueIssue: Error, Hashable, Sendable, CustomStringConvertible {
    public var column: String
    public var value: String
    public var message: String

    public init(column: String, value: String, message: String) {
        self.column = column
        self.value = value
        self.message = message
    }

    public var description: String { message }
}

/// The rule of each profile column a person may write, once: the importer
/// (`ProfileCSV`) and `me set` both check a value here, so the same value
/// gets the same words and the same limits whichever way it arrives
/// (Documentation/PersonalData.md). Each takes the text as given and
/// returns the value as stored. The importer keeps a byte-level fast path
/// for the common case and calls these for the verdict and the words.
public enum ProfileCheck {
    /// A column that must hold something (`id`, `name`): trimmed, not
    /// empty, and not beginning with a NUL byte (SQLite's `length()` stops
    /// at one, so the schema's `length(x) > 0` would read it as empty).
    public static func required(_ column: String, _ text: String) throws(ProfileValueIssue) -> String {
        let value = text.trimmed()
        if value.isEmpty { throw ProfileValueIssue(column: column, value: "", message: "\(column) is required") }
        if value.unicodeScalars.first == "\0" {
            throw ProfileValueIssue(column: column, value: value, message: "\(column) must not begin with a NUL byte")
        }
        return value
    }

    public static func name(_ text: String) throws(ProfileValueIssue) -> String {
        try limited("name", try required("name", text), TextLimits.name)
    }

    /// `value`, unless it is longer than `limit` (`TextLimits`).
    public static func limited(_ column: String, _ value: String, _ limit: Int) throws(ProfileValueIssue) -> String {
        guard TextLimits.exceeds(value, limit) else { return value }
        throw ProfileValueIssue(
            column: column, value: String(value.prefix(40)) + "…",
            message: TextLimits.message(column: column, length: value.unicodeScalars.count, limit: limit))
    }

    /// A whole number from 18 to 120 (the schema's CHECK), after trimming.
    public static func age(_ text: String) throws(ProfileValueIssue) -> Int {
        let value = text.trimmed()
        guard let age = Int(value), (18...120).contains(age) else {
            throw ProfileValueIssue(column: "age", value: value, message: "age must be a whole number from 18 to 120")
        }
        return age
    }

    /// `gender`, `city`: trimmed; empty is none.
    public static func optionalText(_ text: String) -> String? {
        let value = text.trimmed()
        return value.isEmpty ? nil : value
    }

    /// `city`: trimmed, empty is none, at most `TextLimits.city`.
    public static func city(_ text: String) throws(ProfileValueIssue) -> String? {
        guard let value = optionalText(text) else { return nil }
        return try limited("city", value, TextLimits.city)
    }

    /// `bio`: kept as given (its line breaks and spacing are the person's),
    /// none when it is only blanks and line breaks; at most `TextLimits.bio`.
    public static func bio(_ text: String) throws(ProfileValueIssue) -> String? {
        text.trimmed(newlines: true).isEmpty ? nil : try limited("bio", text, TextLimits.bio)
    }

    /// `interests` (and `photos` in a CSV): a `;`-separated list, each item
    /// trimmed, empty items dropped.
    public static func list(_ text: String) -> [String] {
        text.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmed() }.filter {
            !$0.isEmpty
        }
    }

    /// `interests`: `list`, at most `TextLimits.interests` items of at most
    /// `TextLimits.interest` each.
    public static func interests(_ text: String) throws(ProfileValueIssue) -> [String] {
        let items = list(text)
        try interests(items)
        return items
    }

    public static func interests(_ items: [String]) throws(ProfileValueIssue) {
        if items.count > TextLimits.interests {
            throw ProfileValueIssue(
                column: "interests", value: items.prefix(3).joined(separator: ";") + ";…",
                message: "\(items.count) interests, over the \(TextLimits.interests) a profile may have")
        }
        for item in items { _ = try limited("interest", item, TextLimits.interest) }
    }

    /// A number within `range` in a column (`lat`, `lon`, `max_km`), or nil
    /// when the text is blank.
    public static func number(_ column: String, _ text: String, _ range: ClosedRange<Double>, _ rule: String)
        throws(ProfileValueIssue) -> Double?
    {
        let value = text.trimmed()
        if value.isEmpty { return nil }
        guard let number = PlainDecimal.value(value), number.isFinite, range.contains(number) else {
            throw ProfileValueIssue(column: column, value: value, message: "\(column) must be \(rule)")
        }
        return number
    }

    public static func latitude(_ text: String) throws(ProfileValueIssue) -> Double? {
        try number("lat", text, -90...90, "a number of degrees from -90 to 90")
    }

    public static func longitude(_ text: String) throws(ProfileValueIssue) -> Double? {
        try number("lon", text, -180...180, "a number of degrees from -180 to 180")
    }

    /// Both or neither: `lat` and `lon` as the importer pairs them.
    public static func place(lat: Double?, lon: Double?, latText: String, lonText: String)
        throws(ProfileValueIssue) -> Location?
    {
        switch (lat, lon) {
        case (.some(let lat), .some(let lon)): return Location(lat: lat, lon: lon)
        case (.some, nil):
            throw ProfileValueIssue(
                column: "lon", value: "", message: "lat \(latText.trimmed()) has no lon: give both or neither")
        case (nil, .some):
            throw ProfileValueIssue(
                column: "lat", value: "", message: "lon \(lonText.trimmed()) has no lat: give both or neither")
        case (nil, nil): return nil
        }
    }

    /// `age_min`, `age_max`: blank takes `default`.
    public static func agePreference(_ column: String, _ text: String, default value: Int)
        throws(ProfileValueIssue) -> Int
    {
        let given = text.trimmed()
        if given.isEmpty { return value }
        guard let age = Int(given), (18...120).contains(age) else {
            throw ProfileValueIssue(
                column: column, value: given, message: "\(column) must be a whole number from 18 to 120")
        }
        return age
    }

    /// `age_min` not above `age_max`.
    public static func ageRange(min: Int, max: Int, maxText: String) throws(ProfileValueIssue) {
        guard min <= max else {
            throw ProfileValueIssue(
                column: "age_max", value: maxText.trimmed(), message: "age_max \(max) is below age_min \(min)")
        }
    }

    public static func maxKm(_ text: String) throws(ProfileValueIssue) -> Double? {
        try number(
            "max_km", text, Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude,
            "a number of km above 0 (leave it empty for no limit)")
    }
}
