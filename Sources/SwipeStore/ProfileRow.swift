import Foundation
import SwipeCore

/// A profile's column values as UTF-8 in one reusable buffer, bound to the
/// upsert statements without a copy or a `String` per column.
struct ProfileRow {
    /// The text columns in order, each appended by `appendText`/`appendNull`.
    enum Column: Int, CaseIterable { case id, name, gender, city, bio, photos, interests, seeking }

    /// Parameters per row, in `Store.profileColumns` order.
    static let parameterCount: Int32 = 14

    /// The text columns' bytes, one after the other.
    var bytes: [UInt8] = []
    /// Each text column's range in `bytes`, or nil for NULL.
    private(set) var texts: [Range<Int>?] = []
    var age = 0
    var lat: Double?
    var lon: Double?
    var ageMin = 18
    var ageMax = 120
    var maxKm: Double?
    /// Where the column being appended starts in `bytes`.
    private(set) var lastEnd = 0

    /// Empties the row, keeping its storage for the next one.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        lastEnd = 0
        lat = nil
        lon = nil
        ageMin = 18
        ageMax = 120
        maxKm = nil
    }

    /// Ends the next text column with the bytes appended to `bytes` since the
    /// previous one ended, and a NUL after them (see `run`).
    mutating func endText() {
        texts.append(lastEnd..<bytes.count)
        bytes.append(0)
        lastEnd = bytes.count
    }

    /// Makes the next text column NULL.
    mutating func appendNull() { texts.append(nil) }

    /// Appends `profile`'s columns.
    mutating func append(_ profile: Profile) {
        func text(_ value: String?) {
            guard let value else { return appendNull() }
            bytes += value.utf8
            endText()
        }
        text(profile.id)
        text(profile.name)
        age = profile.age
        text(profile.gender)
        text(profile.city)
        text(profile.bio)
        text(JSONText.array(profile.photos))
        text(JSONText.array(profile.interests))
        let preferences = profile.preferences
        let seeking = Discovery.seeking(fromList: preferences.seeking.joined(separator: ";"))
        text(seeking.isEmpty ? nil : seeking.joined(separator: ";"))
        lat = profile.location?.lat
        lon = profile.location?.lon
        ageMin = preferences.ageMin
        ageMax = preferences.ageMax
        maxKm = preferences.maxKm
    }

    /// The column's text, or nil for NULL (for errors and tests).
    func text(_ column: Column) -> String? {
        texts[column.rawValue].map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The values as bound, by parameter, for an error.
    var arguments: [SQLiteValue] {
        [.optionalText(text(.id)), .optionalText(text(.name)), .int(age)]
            + [Column.gender, .city, .bio, .photos, .interests].map { .optionalText(text($0)) }
            + [lat.map(SQLiteValue.real) ?? .null, lon.map(SQLiteValue.real) ?? .null, .optionalText(text(.seeking)),
               .int(ageMin), .int(ageMax), maxKm.map(SQLiteValue.real) ?? .null]
    }

    /// Binds the row to `statement` (parameters 1…14 in `profileColumns`
    /// order), steps it once and resets it: sqlite3_step's code.
    func run(_ statement: Statement) throws -> Int32 {
        try bytes.withUnsafeBufferPointer { buffer in
            try bind(buffer, to: statement, offset: 0, terminate: true)
            return statement.stepAndReset()
        }
    }

    /// Binds the row to parameters `offset + 1` … `offset + 14` of
    /// `statement`, in `profileColumns` order. The texts are bound in place
    /// (SQLITE_STATIC) from `buffer`, which must be `bytes` and stay valid
    /// until the statement has been stepped. With `terminate`, texts without
    /// a NUL inside are bound as NUL-terminated, which spares SQLite a copy
    /// when a CHECK calls length() or json_valid() on them; without, they
    /// are bound by length (the import, whose CHECKs SQLite skips).
    func bind(_ buffer: UnsafeBufferPointer<UInt8>, to statement: Statement, offset: Int32, terminate: Bool) throws {
        precondition(texts.count == Column.allCases.count, "a profile row needs every text column")
        let parameters: [Int32] = [1, 2, 4, 5, 6, 7, 8, 11]
        for column in 0..<texts.count {
            guard let range = texts[column] else {
                try statement.bind(offset + parameters[column], bytes: nil)
                continue
            }
            let text = UnsafeBufferPointer(rebasing: buffer[range])
            // Each text is followed by a NUL; unless one is inside it too,
            // SQLite may read it as terminated and skips copying it to add
            // one (length() and json_valid() want terminated text).
            let terminated = terminate && (text.isEmpty || memchr(text.baseAddress!, 0, text.count) == nil)
            try statement.bind(offset + parameters[column], bytes: text, terminated: terminated)
        }
        try statement.bind(offset + 3, int: age)
        try statement.bind(offset + 9, double: lat)
        try statement.bind(offset + 10, double: lon)
        try statement.bind(offset + 12, int: ageMin)
        try statement.bind(offset + 13, int: ageMax)
        try statement.bind(offset + 14, double: maxKm)
    }
}
