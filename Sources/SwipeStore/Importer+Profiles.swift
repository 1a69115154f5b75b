import Foundation
import SwipeCore

extension Importer {
    /// Imports a profiles CSV (README, "Profiles CSV"): `id`, `name`, `age` (18–120)
    /// required; `gender`, `city`, `bio`, `photos`, `interests` optional, the
    /// last two `;`-separated. Profiles with a known id are updated in place.
    ///
    /// Rows go from the reader's bytes to the statement's parameters through
    /// reused `ProfileRow`s: no `String` per field, no `Profile`. They are
    /// read and encoded on a second thread (`ImportPipeline`) and written 64
    /// to an INSERT (`ProfileChunkWriter`).
    ///
    /// An id may appear once per file (compared trimmed, as stored): a
    /// repeat is a row error naming both lines, found with a set of the ids
    /// read so far, on the reading thread. An update writes only the columns
    /// the file has and keeps the others.
    public func importProfiles(path: String) throws -> ImportSummary {
        var writer: ProfileChunkWriter?
        // A first import (no profile yet) builds the index of places once, at
        // the end, sorted: a quarter of the cost of an index insert per row.
        var rebuildPlaces = false
        let seen = SeenIDs(fileSize: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        return try run(
            path: path, required: ProfileColumn.required, optional: ProfileColumn.optional, checkedRows: true,
            rollbackJournal: true, makeRow: ProfileRow.init,
            prepare: { record, positions, row in
                try Self.encode(record, positions: positions, into: &row)
                try seen.insert(row, line: record.line, recordBytes: record.bytes.count + record.count)
            },
            write: { slot, index, dryRun in
                if dryRun { return .inserted }
                if writer == nil {
                    if try store.connection.scalarInt("SELECT count(*) FROM (SELECT 1 FROM profiles LIMIT 1)") == 0 {
                        try store.connection.execute("DROP INDEX profiles_cell")
                        rebuildPlaces = true
                    }
                    writer = try ProfileChunkWriter(store: store, columns: ProfileColumn.updated(byFileWith: Set(index.keys)))
                }
                try writer!.add(&slot.row)
                return nil
            },
            flush: {
                try writer?.flush()
                // In the import's transaction: a failed import undoes the drop too.
                if rebuildPlaces { try store.connection.execute(SchemaV2.placesIndex) }
                // An updated profile may now be eligible for feeds that passed it
                // (README "Discovery"): they start again from the first key.
                if (writer?.updated ?? 0) > 0 {
                    try store.connection.execute("DELETE FROM feed_cursors; DELETE FROM liker_cursors")
                }
                return (writer?.inserted ?? 0, writer?.updated ?? 0, writer?.unchanged ?? 0)
            })
    }

    /// The ids a profile import has read, each with its line: only the
    /// reading thread touches it (`ImportPipeline`).
    ///
    /// An id is kept as a 64-bit hash of its trimmed bytes with a 32-bit
    /// line, not as a `String`: 12 bytes a row instead of about 70 (a
    /// million ids cost some 24 MB instead of 70 MB), and no allocation per
    /// row. Two different ids share a hash with probability about n²/2⁶⁵
    /// (1 in 37 million for a million ids); the hash is seeded per process.
    /// After the first rows the table is sized once for the rows the file
    /// size suggests, so it does not double (and briefly hold both copies)
    /// again and again as it grows.
    final class SeenIDs: @unchecked Sendable {
        private var lines: [UInt64: UInt32] = [:]
        private let fileSize: Int
        private var sampledBytes = 0
        private static let sample = 256

        init(fileSize: Int) { self.fileSize = fileSize }

        /// Notes `row`'s id from `line` (a record of about `recordBytes`
        /// bytes in the file); a `RowIssue` when an earlier line had it.
        func insert(_ row: ProfileRow, line: Int, recordBytes: Int) throws {
            if lines.count < Self.sample {
                sampledBytes += recordBytes
                if lines.count == Self.sample - 1 {
                    let estimate = Double(fileSize) / (Double(sampledBytes) / Double(Self.sample))
                    lines.reserveCapacity(Int(min(estimate * 1.05, 100_000_000)))
                }
            }
            guard let range = row.texts[ProfileRow.Column.id.rawValue] else { return }
            var hasher = Hasher()
            row.bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
            let key = UInt64(bitPattern: Int64(hasher.finalize()))
            if let first = lines.updateValue(UInt32(truncatingIfNeeded: line), forKey: key) {
                lines[key] = first
                throw RowIssue(
                    column: "id", value: row.text(.id), message: "id repeats line \(first); an id may appear once per file")
            }
        }
    }

    /// The profile columns in `CaseIterable` order, which is `required + optional`.
    enum ProfileColumn: Int, CaseIterable {
        case id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, ageMin, ageMax, maxKm

        var name: String {
            switch self {
            case .ageMin: "age_min"
            case .ageMax: "age_max"
            case .maxKm: "max_km"
            default: "\(self)"
            }
        }
        static let required = ["id", "name", "age"]

        /// The columns an update sets for a file with these header names:
        /// those it has, with lat and lon, and age_min and age_max, always
        /// together (a file with only age_max must not leave a stored
        /// age_min above it; a missing half takes its default).
        static func updated(byFileWith names: Set<String>) -> [ProfileColumn] {
            let pairs: [[ProfileColumn]] = [[.lat, .lon], [.ageMin, .ageMax]]
            var chosen = Set(allCases.filter { names.contains($0.name) })
            for pair in pairs where pair.contains(where: chosen.contains) { chosen.formUnion(pair) }
            return allCases.filter(chosen.contains)
        }
        static let optional = allCases.dropFirst(3).map(\.name)
    }

    /// Checks `record` and writes its columns into `row`; `positions` gives
    /// each `ProfileColumn`'s field index (nil when the file lacks it). The
    /// checks are all of the `profiles` table's CHECKs, which the import
    /// does not ask SQLite to repeat (`Connection.bulkWrite`); the JSON
    /// arrays are valid by construction.
    static func encode(_ record: CSVRawRecord, positions: [Int?], into row: inout ProfileRow) throws {
        row.removeAll()
        try record.bytes.withUnsafeBufferPointer { buffer in
            func field(_ column: ProfileColumn) -> UnsafeBufferPointer<UInt8> {
                guard let position = positions[column.rawValue] else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(rebasing: buffer[record.range(position)])
            }
            // The schema's CHECK (length(x) > 0), which SQLite is not asked to
            // evaluate here: its length() stops at a NUL, so a value that begins
            // with one is as empty as no value.
            func required(_ column: ProfileColumn) throws {
                row.appendTrimmed(field(column))
                if row.bytes.count == row.lastEnd {
                    throw RowIssue(column: column.name, value: "", message: "\(column.name) is required")
                }
                if row.bytes[row.lastEnd] == 0 {
                    let value = String(decoding: row.bytes[row.lastEnd...], as: UTF8.self)
                    throw RowIssue(column: column.name, value: value, message: "\(column.name) must not begin with a NUL byte")
                }
                row.endText()
            }
            func optional(_ column: ProfileColumn) {
                row.appendTrimmed(field(column))
                if row.bytes.count == row.lastEnd { row.appendNull() } else { row.endText() }
            }
            try required(.id)
            try required(.name)
            row.appendTrimmed(field(.age))
            let ageText = String(decoding: row.bytes[row.lastEnd...], as: UTF8.self)
            row.bytes.removeSubrange(row.lastEnd...)
            guard let age = Int(ageText), (18...120).contains(age) else {
                throw RowIssue(column: "age", value: ageText, message: "age must be a whole number from 18 to 120")
            }
            row.age = age
            optional(.gender)
            optional(.city)
            let bio = field(.bio)
            if bio.isBlank(newlines: true) { row.appendNull() } else {
                row.bytes += bio
                row.endText()
            }
            row.appendJSONList(field(.photos))
            row.endText()
            row.appendJSONList(field(.interests))
            row.endText()
            try encodeDiscovery(field, into: &row)
        }
    }

    /// The discovery columns (README "Discovery"): checked as the schema's
    /// CHECKs check them, each failure naming its column and value.
    private static func encodeDiscovery(
        _ field: (ProfileColumn) -> UnsafeBufferPointer<UInt8>, into row: inout ProfileRow
    ) throws {
        func text(_ column: ProfileColumn) -> String {
            String(decoding: field(column), as: UTF8.self).trimmed()
        }
        func number(_ column: ProfileColumn, _ range: ClosedRange<Double>, _ rule: String) throws -> Double? {
            let value = text(column)
            if value.isEmpty { return nil }
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                throw RowIssue(column: column.name, value: value, message: "\(column.name) must be \(rule)")
            }
            return number
        }
        let lat = try number(.lat, -90...90, "a number of degrees from -90 to 90")
        let lon = try number(.lon, -180...180, "a number of degrees from -180 to 180")
        switch (lat, lon) {
        case (.some, nil):
            throw RowIssue(column: "lon", value: "", message: "lat \(text(.lat)) has no lon: give both or neither")
        case (nil, .some):
            throw RowIssue(column: "lat", value: "", message: "lon \(text(.lon)) has no lat: give both or neither")
        default:
            row.lat = lat
            row.lon = lon
        }
        let seeking = Discovery.seeking(fromList: text(.seeking))
        if seeking.isEmpty { row.appendNull() } else {
            row.bytes += seeking.joined(separator: ";").utf8
            row.endText()
        }
        func age(_ column: ProfileColumn, default value: Int) throws -> Int {
            let given = text(column)
            if given.isEmpty { return value }
            guard let age = Int(given), (18...120).contains(age) else {
                throw RowIssue(column: column.name, value: given, message: "\(column.name) must be a whole number from 18 to 120")
            }
            return age
        }
        row.ageMin = try age(.ageMin, default: 18)
        row.ageMax = try age(.ageMax, default: 120)
        guard row.ageMin <= row.ageMax else {
            throw RowIssue(column: "age_max", value: text(.ageMax),
                           message: "age_max \(row.ageMax) is below age_min \(row.ageMin)")
        }
        row.maxKm = try number(.maxKm, Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude,
                               "a number of km above 0 (leave it empty for no limit)")
    }
}

extension ProfileRow {
    /// Appends `bytes` trimmed exactly as `String.trimmed()` trims: ASCII
    /// blanks on the bytes, through `trimmed()` only when an edge character
    /// may be a Unicode blank.
    mutating func appendTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, newlines: Bool = false) {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || (newlines && (0x0A...0x0D).contains(byte)) }
        var start = 0, end = bytes.count
        while start < end && isBlank(bytes[start]) { start += 1 }
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        guard start < end else { return }
        let inner = UnsafeBufferPointer(rebasing: bytes[start..<end])
        // Every non-ASCII blank (U+0085, U+00A0, U+1680, U+2000–U+200A,
        // U+2028, U+2029, U+202F, U+205F, U+3000) starts with C2, E1, E2 or E3.
        func mayBeBlank(_ lead: UInt8) -> Bool { lead == 0xC2 || (0xE1...0xE3).contains(lead) }
        var lastLead = inner.count - 1
        while lastLead > 0 && (0x80...0xBF).contains(inner[lastLead]) { lastLead -= 1 }
        if !mayBeBlank(inner[0]) && !mayBeBlank(inner[lastLead]) {
            self.bytes += inner
        } else {
            self.bytes += String(decoding: inner, as: UTF8.self).trimmed(newlines: newlines).utf8
        }
    }

    /// Appends a `;`-separated list as a JSON array of its trimmed, non-empty
    /// items: what `JSONText.array` makes of them.
    mutating func appendJSONList(_ list: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x5B)
        // One pass over the whole list settles most lists (every photo URL):
        // printable ASCII with no quote or backslash needs no escape and no
        // Unicode trimming, so an item is its bytes between spaces and tabs.
        let plain = ByteScan.isPlainASCII(list)
        var first = true
        var itemStart = 0
        while itemStart <= list.count {
            var itemEnd = list.count
            if itemStart < list.count, let separator = memchr(list.baseAddress! + itemStart, 0x3B, list.count - itemStart) {
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
    func isBlank(newlines: Bool) -> Bool {
        var ascii = true
        for byte in self {
            if byte >= 0x80 {
                ascii = false
            } else if !(byte == 0x20 || byte == 0x09 || (newlines && (0x0A...0x0D).contains(byte))) {
                return false
            }
        }
        return ascii || String(decoding: self, as: UTF8.self).trimmed(newlines: newlines).isEmpty
    }
}
