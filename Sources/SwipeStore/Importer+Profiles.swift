import SwipeCore

extension Importer {
    /// Imports a profiles CSV (DESIGN.md §5): `id`, `name`, `age` (18–120)
    /// required; `gender`, `city`, `bio`, `photos`, `interests` optional, the
    /// last two `;`-separated. Profiles with a known id are updated in place.
    ///
    /// Rows go from the reader's bytes to the statement's parameters through
    /// one reused `ProfileRow`: no `String` per field, no `Profile`.
    public func importProfiles(path: String) throws -> ImportSummary {
        var failed = false
        var row = ProfileRow()
        var positions: [Int?] = []
        var upsert: ProfileUpsert?
        return try run(
            path: path, required: ProfileColumn.required, optional: ProfileColumn.optional
        ) { fields in
            if positions.isEmpty { positions = ProfileColumn.allCases.map { fields.index[$0.name] } }
            do {
                try Self.encode(fields.record, positions: positions, into: &row)
                if failed { return .inserted }
                if upsert == nil { upsert = try store.profileUpsert() }
                return try upsert!.run(row) == .inserted ? .inserted : .updated
            } catch {
                if !skipInvalid { failed = true }
                throw error
            }
        }
    }

    /// The profile columns in `CaseIterable` order.
    enum ProfileColumn: Int, CaseIterable {
        case id, name, age, gender, city, bio, photos, interests

        var name: String { "\(self)" }
        static let required = ["id", "name", "age"]
        static let optional = ["gender", "city", "bio", "photos", "interests"]
    }

    /// Checks `record` and writes its columns into `row`; `positions` gives
    /// each `ProfileColumn`'s field index (nil when the file lacks it).
    static func encode(_ record: CSVRawRecord, positions: [Int?], into row: inout ProfileRow) throws {
        row.removeAll()
        try record.bytes.withUnsafeBufferPointer { buffer in
            func field(_ column: ProfileColumn) -> UnsafeBufferPointer<UInt8> {
                guard let position = positions[column.rawValue] else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(rebasing: buffer[record.range(position)])
            }
            func required(_ column: ProfileColumn) throws {
                row.appendTrimmed(field(column))
                if row.bytes.count == row.lastEnd {
                    throw RowIssue(column: column.name, value: "", message: "\(column.name) is required")
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
        }
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
        var first = true
        var itemEnd = -1
        while itemEnd < list.count {
            let itemStart = itemEnd + 1
            itemEnd = itemStart
            while itemEnd < list.count && list[itemEnd] != 0x3B { itemEnd += 1 }
            let item = list[itemStart..<itemEnd]
            let start = bytes.count
            if !first { bytes.append(0x2C) }
            bytes.append(0x22)
            let textStart = bytes.count
            appendTrimmed(UnsafeBufferPointer(rebasing: item))
            if bytes.count == textStart {
                bytes.removeSubrange(start...)
                continue
            }
            if bytes[textStart...].contains(where: JSONText.needsEscape) {
                let text = String(decoding: bytes[textStart...], as: UTF8.self)
                bytes.removeSubrange(textStart - 1..<bytes.count)
                bytes += JSONText.quoted(text).utf8
            } else {
                bytes.append(0x22)
            }
            first = false
        }
        bytes.append(0x5D)
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
