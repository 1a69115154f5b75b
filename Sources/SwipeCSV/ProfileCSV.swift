import Foundation
import SwipeCore
import SwipeStore

/// The profiles CSV (README "Profiles CSV"), whatever database it goes
/// into: its columns, and each record checked against every CHECK of the
/// `profiles` table and encoded into a `ProfileRow`, with the same message
/// for the same bad value on every backend.
package enum ProfileCSV {
    package typealias RowIssue = CSVImport.RowIssue

    /// The profile columns in `CaseIterable` order, which is `required + optional`.
    package enum Column: Int, CaseIterable {
        case id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, ageMin, ageMax, maxKm

        package var name: String {
            switch self {
            case .ageMin: "age_min"
            case .ageMax: "age_max"
            case .maxKm: "max_km"
            default: "\(self)"
            }
        }
        /// Only `id`: a file may update any columns of profiles that exist;
        /// `name` and `age` are required of new ids (`newProfileIssue`).
        package static let required = ["id"]
        /// The columns a new profile cannot do without.
        package static let requiredOfNew = ["name", "age"]

        /// The columns an update sets for a file with these header names:
        /// those it has, with lat and lon, and age_min and age_max, always
        /// together (a file with only age_max must not leave a stored
        /// age_min above it; a missing half takes its default).
        package static func updated(byFileWith names: Set<String>) -> [Column] {
            let pairs: [[Column]] = [[.lat, .lon], [.ageMin, .ageMax]]
            var chosen = Set(allCases.filter { names.contains($0.name) })
            for pair in pairs where pair.contains(where: chosen.contains) { chosen.formUnion(pair) }
            return allCases.filter(chosen.contains)
        }
        package static let optional = allCases.dropFirst(1).map(\.name)

        /// Of `requiredOfNew`, those a file with these header names lacks.
        package static func missing(fromFileWith names: Set<String>) -> [String] {
            requiredOfNew.filter { !names.contains($0) }
        }
    }

    /// Checks `record` and writes its columns into `row`; `positions` gives
    /// each `Column`'s field index (nil when the file lacks it). The
    /// checks are all of the `profiles` table's CHECKs, which the import
    /// does not ask SQLite to repeat (`SQLiteConnection.bulkWrite`); the JSON
    /// arrays are valid by construction. `photos` resolves the `photos`
    /// items that are not `https://` URLs (files, stored photos) and refuses
    /// the others; without it they are kept as written.
    package static func encode(
        _ record: CSVRawRecord, positions: [Int?], into row: inout ProfileRow, photos: ProfilePhotos? = nil
    ) throws {
        row.removeAll()
        try record.bytes.withUnsafeBufferPointer { buffer in
            func field(_ column: Column) -> UnsafeBufferPointer<UInt8> {
                guard let position = positions[column.rawValue] else {
                    return UnsafeBufferPointer(start: nil, count: 0)
                }
                return UnsafeBufferPointer(rebasing: buffer[record.range(position)])
            }
            // The schema's CHECK (length(x) > 0), which SQLite is not asked to
            // evaluate here: its length() stops at a NUL, so a value that begins
            // with one is as empty as no value.
            // The verdict and its words are `ProfileCheck.required`'s; the
            // bytes are checked here first so a good value costs no `String`.
            func required(_ column: Column) throws {
                row.appendTrimmed(field(column))
                if row.bytes.count == row.lastEnd || row.bytes[row.lastEnd] == 0 {
                    let value = String(decoding: row.bytes[row.lastEnd...], as: UTF8.self)
                    _ = try checked { () throws(ProfileValueIssue) in try ProfileCheck.required(column.name, value) }
                }
                row.endText()
            }
            func optional(_ column: Column) {
                row.appendTrimmed(field(column))
                if row.bytes.count == row.lastEnd { row.appendNull() } else { row.endText() }
            }
            // The lengths of `TextLimits`, checked on the bytes: a field no
            // longer in bytes than the limit is within it in scalars; only a
            // longer one is counted, and only one over is made a `String`.
            func limited(_ column: Column, _ label: String, _ limit: Int, trimmed: Bool = true) throws {
                let bytes = field(column)
                guard bytes.count > limit, TextLimits.scalarCount(bytes) > limit else { return }
                let text = String(decoding: bytes, as: UTF8.self)
                _ = try checked { () throws(ProfileValueIssue) in
                    try ProfileCheck.limited(label, trimmed ? text.trimmed() : text, limit)
                }
            }
            func limitedInterests() throws {
                let bytes = field(.interests)
                guard bytes.count > TextLimits.interest else { return }
                var items = 1, longest = 0, current = 0
                for byte in bytes {
                    if byte == UInt8(ascii: ";") {
                        items += 1
                        current = 0
                    } else if byte & 0xC0 != 0x80 {
                        current += 1
                        longest = max(longest, current)
                    }
                }
                guard items > TextLimits.interests || longest > TextLimits.interest else { return }
                let text = String(decoding: bytes, as: UTF8.self)
                _ = try checked { () throws(ProfileValueIssue) in try ProfileCheck.interests(text) }
            }
            try limited(.name, "name", TextLimits.name)
            try limited(.city, "city", TextLimits.city)
            try limited(.bio, "bio", TextLimits.bio, trimmed: false)
            try limitedInterests()
            try required(.id)
            // A file without `name` or `age` updates profiles that exist; the
            // writer refuses a new id (`newProfileIssue`) before this
            // stand-in could be stored, and an update does not set the column.
            if positions[Column.name.rawValue] == nil {
                row.bytes += "-".utf8
                row.endText()
            } else {
                try required(.name)
            }
            if positions[Column.age.rawValue] == nil {
                row.age = 18
            } else {
                let age = field(.age)
                if let value = plainNumber(age, in: 18...120) {
                    row.age = value
                } else {
                    let ageText = String(decoding: age, as: UTF8.self)
                    row.age = try checked { () throws(ProfileValueIssue) in try ProfileCheck.age(ageText) }
                }
            }
            optional(.gender)
            optional(.city)
            let bio = field(.bio)
            if bio.isBlank(newlines: true) {
                row.appendNull()
            } else {
                row.bytes += bio
                row.endText()
            }
            let photoField = field(.photos)
            if let photos, !ProfilePhotos.isPlainURLs(photoField) {
                let items = String(decoding: photoField, as: UTF8.self).split(separator: ";").map {
                    String($0).trimmed()
                }.filter { !$0.isEmpty }
                let list = try photos.resolve(items, profile: row.text(.id) ?? "", pending: &row.photoPending)
                row.bytes += JSONText.array(list).utf8
            } else {
                row.appendJSONList(photoField)
            }
            row.endText()
            row.appendJSONList(field(.interests))
            row.endText()
            try encodeDiscovery(field, into: &row)
        }
    }

    /// The discovery columns (README "Discovery"): checked as the schema's
    /// CHECKs check them, each failure naming its column and value.
    private static func encodeDiscovery(
        _ field: (Column) -> UnsafeBufferPointer<UInt8>, into row: inout ProfileRow
    ) throws {
        // Trimmed as `String.trimmed()` trims, on the bytes. A blank value
        // (every one, in a file without these columns) is its default with
        // no `String` and no call; only a given value goes to `ProfileCheck`.
        func trimmed(_ column: Column) -> UnsafeBufferPointer<UInt8> {
            let bytes = field(column)
            return UnsafeBufferPointer(rebasing: bytes[ByteScan.trimmedRange(bytes)])
        }
        func text(_ column: Column) -> String { String(decoding: trimmed(column), as: UTF8.self) }
        if !trimmed(.lat).isEmpty || !trimmed(.lon).isEmpty {
            let latText = text(.lat), lonText = text(.lon)
            try checked { () throws(ProfileValueIssue) in
                let place = try ProfileCheck.place(
                    lat: try ProfileCheck.latitude(latText), lon: try ProfileCheck.longitude(lonText),
                    latText: latText, lonText: lonText)
                row.lat = place?.lat
                row.lon = place?.lon
            }
        }
        if !appendPlainSeeking(field(.seeking), into: &row) {
            let seeking = Discovery.seeking(fromList: text(.seeking))
            if seeking.isEmpty {
                row.appendNull()
            } else {
                row.bytes += seeking.joined(separator: ";").utf8
                row.endText()
            }
        }
        // age_min and age_max: blank is the default, plain digits in range
        // are read here; anything else gets `ProfileCheck`'s verdict and words.
        func agePreference(_ column: Column, default value: Int) throws -> Int {
            let given = trimmed(column)
            if given.isEmpty { return value }
            if let age = plainNumber(given, in: 18...120) { return age }
            let text = String(decoding: given, as: UTF8.self)
            return try checked { () throws(ProfileValueIssue) in
                try ProfileCheck.agePreference(column.name, text, default: value)
            }
        }
        row.ageMin = try agePreference(.ageMin, default: 18)
        row.ageMax = try agePreference(.ageMax, default: 120)
        if row.ageMin > row.ageMax {
            let maxText = text(.ageMax)
            try checked { () throws(ProfileValueIssue) in
                try ProfileCheck.ageRange(min: row.ageMin, max: row.ageMax, maxText: maxText)
            }
        }
        if !trimmed(.maxKm).isEmpty {
            let maxKmText = text(.maxKm)
            row.maxKm = try checked { () throws(ProfileValueIssue) in try ProfileCheck.maxKm(maxKmText) }
        }
    }

    /// The value of `bytes` when they are 1 to 3 ASCII digits (after ASCII
    /// blanks) within `range`, as `Int` reads them; nil for anything else,
    /// which the caller hands to `ProfileCheck` for its verdict and words.
    @inline(__always)
    static func plainNumber(_ bytes: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int>) -> Int? {
        var start = 0, end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard end > start, end - start <= 3 else { return nil }
        var value = 0
        for index in start..<end {
            let digit = Int(bytes[index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return range.contains(value) ? value : nil
    }

    /// Appends a `seeking` list that `Discovery.seeking(fromList:)` would
    /// store as written, without a `String` per item: true when it did. That
    /// is a list of printable ASCII items without capitals, blanks or
    /// repeats, separated by single `;`s (nearly every row: `f`, `m;nb`).
    /// The general rule cost the reading thread a sixth of its instructions.
    static func appendPlainSeeking(_ bytes: UnsafeBufferPointer<UInt8>, into row: inout ProfileRow) -> Bool {
        var start = 0, end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard start < end else {
            row.appendNull()
            return true
        }
        let list = UnsafeBufferPointer(rebasing: bytes[start..<end])
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 16) { items in
            var count = 0
            var itemStart = 0
            for index in 0...list.count {
                if index == list.count || list[index] == 0x3B {  // the end, or ;
                    guard index > itemStart, count < items.count else { return false }
                    let item = list[itemStart..<index]
                    for earlier in items[..<count] where list[earlier].elementsEqual(item) { return false }
                    items[count] = itemStart..<index
                    count += 1
                    itemStart = index + 1
                } else if list[index] <= 0x20 || list[index] >= 0x7F || (list[index] >= 0x41 && list[index] <= 0x5A) {
                    return false
                }
            }
            row.bytes += list
            row.endText()
            return true
        }
    }

    /// The refusal of a new id in a file that lacks `missing` (`name`, `age`).
    package static func newProfileIssue(id: String, missing: [String]) -> RowIssue {
        RowIssue(
            column: missing.joined(separator: ", "), value: id,
            message: "\(id) is a new id: \(missing.joined(separator: " and ")) "
                + (missing.count == 1 ? "is" : "are") + " required for a new profile, and the file has no "
                + missing.joined(separator: ", ") + " column")
    }

    /// `body`'s value, or its `ProfileValueIssue` as the importer's row issue.
    @inline(__always)
    static func checked<T>(_ body: () throws(ProfileValueIssue) -> T) throws(RowIssue) -> T {
        do {
            return try body()
        } catch {
            throw RowIssue(column: error.column, value: error.value, message: error.message)
        }
    }
}

extension ProfileRow {
    /// Appends `bytes` trimmed exactly as `String.trimmed()` trims, on the
    /// bytes (`ByteScan.trimmedRange`): no `String` per field.
    package mutating func appendTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, newlines: Bool = false) {
        let range = ByteScan.trimmedRange(bytes, newlines: newlines)
        guard !range.isEmpty else { return }
        self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Appends a `;`-separated list as a JSON array of its trimmed, non-empty
    /// items: what `JSONText.array` makes of them.
    package mutating func appendJSONList(_ list: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x5B)
        // One pass over the whole list settles most lists (every photo URL):
        // printable ASCII with no quote or backslash needs no escape and no
        // Unicode trimming, so an item is its bytes between spaces and tabs.
        let plain = ByteScan.isPlainASCII(list)
        var first = true
        var itemStart = 0
        while itemStart <= list.count {
            var itemEnd = list.count
            if itemStart < list.count,
                let separator = memchr(list.baseAddress! + itemStart, 0x3B, list.count - itemStart)
            {
                itemEnd = list.baseAddress!.distance(to: separator.assumingMemoryBound(to: UInt8.self))
            }
            let item = UnsafeBufferPointer(rebasing: list[itemStart..<itemEnd])
            itemStart = itemEnd + 1
            if plain {
                var start = 0, end = item.count
                while start < end && (item[start] == 0x20 || item[start] == 0x09) { start += 1 }
                while end > start && (item[end - 1] == 0x20 || item[end - 1] == 0x09) { end -= 1 }
                guard start < end else { continue }
                if !first { bytes.append(0x2C) }
                bytes.append(0x22)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: item[start..<end]))
                bytes.append(0x22)
                first = false
            } else if appendJSONItem(item, first: first) {
                first = false
            }
        }
        bytes.append(0x5D)
    }

    /// Appends one list item trimmed as `String.trimmed()` trims and quoted
    /// as `JSONText.quoted` quotes, after a comma unless `first`: false (and
    /// nothing appended) when the item is blank.
    private mutating func appendJSONItem(_ item: UnsafeBufferPointer<UInt8>, first: Bool) -> Bool {
        let start = bytes.count
        if !first { bytes.append(0x2C) }
        bytes.append(0x22)
        let textStart = bytes.count
        appendTrimmed(item)
        if bytes.count == textStart {
            bytes.removeSubrange(start...)
            return false
        }
        let escape = bytes.withUnsafeBufferPointer {
            ByteScan.containsJSONEscape(UnsafeBufferPointer(rebasing: $0[textStart...]))
        }
        if escape {
            let text = String(decoding: bytes[textStart...], as: UTF8.self)
            bytes.removeSubrange(textStart - 1..<bytes.count)
            bytes += JSONText.quoted(text).utf8
        } else {
            bytes.append(0x22)
        }
        return true
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are empty once trimmed as `String.trimmed(newlines:)` trims.
    package func isBlank(newlines: Bool) -> Bool {
        ByteScan.trimmedRange(self, newlines: newlines).isEmpty
    }
}
