import CSQLite
import Foundation
import SwipeCore

extension Store {
    /// What an upsert did.
    public enum UpsertOutcome: Sendable { case inserted, updated }

    static let profileColumns = "id, name, age, gender, city, bio, photos, interests"

    /// SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | 8 << 8), a macro Swift does not import.
    static let constraintUnique = SQLITE_CONSTRAINT | 8 << 8

    /// Inserts `profile`, or updates the profile with the same id in place
    /// (keeping its internal key, so decisions and the feed order survive).
    @discardableResult
    public func upsert(_ profile: Profile) throws -> UpsertOutcome {
        var row = ProfileRow()
        row.append(profile)
        return try profileUpsert().run(row)
    }

    /// The prepared upsert statements, for a loop that writes many rows
    /// (fetched once, so the loop does not hash their SQL per row).
    func profileUpsert() throws -> ProfileUpsert {
        try ProfileUpsert(
            connection: connection,
            insert: connection.statement("""
                INSERT INTO profiles (\(Self.profileColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """),
            update: connection.statement("""
                UPDATE profiles SET name = ?2, age = ?3, gender = ?4, city = ?5, bio = ?6, photos = ?7, interests = ?8
                WHERE id = ?1
                """))
    }

    /// The profile with external id `id`, or nil.
    public func profile(id: String) throws -> Profile? {
        try connection.statement("SELECT \(Self.profileColumns) FROM profiles WHERE id = ?1")
            .bind(.text(id)).first { Self.profile(from: $0) }
    }

    /// Calls `body` with every profile in internal-key order, one row at a
    /// time (memory stays flat however many there are).
    public func forEachProfile(_ body: (Profile) throws -> Void) throws {
        try connection.statement("SELECT \(Self.profileColumns) FROM profiles ORDER BY key")
            .bind().forEachRow { try body(Self.profile(from: $0)) }
    }

    /// Reads a profile from columns 0…7 in `profileColumns` order.
    static func profile(from row: Row, offset: Int32 = 0) -> Profile {
        Profile(
            id: row.text(offset), name: row.text(offset + 1), age: row.int(offset + 2),
            gender: row.optionalText(offset + 3), city: row.optionalText(offset + 4),
            bio: row.optionalText(offset + 5), photos: strings(fromJSON: row.text(offset + 6)),
            interests: strings(fromJSON: row.text(offset + 7)))
    }

    private static func strings(fromJSON text: String) -> [String] {
        guard text != "[]" else { return [] }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String] ?? []
    }
}

/// Writes profile rows: `Store.profileUpsert()`.
struct ProfileUpsert {
    let connection: Connection
    let insert: Statement
    let update: Statement

    /// Inserts `row`, or updates the profile with its id in place. The
    /// insert is tried first and the update runs only when it conflicts on
    /// `id` (SQLITE_CONSTRAINT_UNIQUE: the key is never bound, so `id` is the
    /// only unique column it can hit), which spares a new profile the
    /// lookup by id. A failed insert changes nothing: SQLite undoes the
    /// statement, not the transaction around it.
    func run(_ row: ProfileRow) throws -> Store.UpsertOutcome {
        var code = try row.run(insert)
        if code == SQLITE_DONE { return .inserted }
        guard sqlite3_extended_errcode(connection.handle) == Store.constraintUnique else {
            throw connection.error(code: code, sql: insert.sql, arguments: row.arguments)
        }
        code = try row.run(update)
        guard code == SQLITE_DONE else { throw connection.error(code: code, sql: update.sql, arguments: row.arguments) }
        return .updated
    }
}

/// A profile's column values as UTF-8 in one reusable buffer, bound to the
/// upsert statements without a copy or a `String` per column.
struct ProfileRow {
    /// The text columns in order, each appended by `appendText`/`appendNull`.
    enum Column: Int, CaseIterable { case id, name, gender, city, bio, photos, interests }

    /// The text columns' bytes, one after the other.
    var bytes: [UInt8] = []
    /// Each text column's range in `bytes`, or nil for NULL.
    private(set) var texts: [Range<Int>?] = []
    var age = 0
    /// Where the column being appended starts in `bytes`.
    private(set) var lastEnd = 0

    /// Empties the row, keeping its storage for the next one.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        lastEnd = 0
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
    }

    /// The column's text, or nil for NULL (for errors and tests).
    func text(_ column: Column) -> String? {
        texts[column.rawValue].map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The values as bound, by parameter, for an error.
    var arguments: [SQLiteValue] {
        [.optionalText(text(.id)), .optionalText(text(.name)), .int(age)]
            + [Column.gender, .city, .bio, .photos, .interests].map { .optionalText(text($0)) }
    }

    /// Binds the row to `statement` (parameters 1…8 in `profileColumns`
    /// order), steps it once and resets it: sqlite3_step's code.
    func run(_ statement: Statement) throws -> Int32 {
        precondition(texts.count == Column.allCases.count, "a profile row needs every text column")
        return try bytes.withUnsafeBufferPointer { buffer in
            let parameters: [Int32] = [1, 2, 4, 5, 6, 7, 8]
            for (column, range) in texts.enumerated() {
                guard let range else {
                    try statement.bind(parameters[column], bytes: nil)
                    continue
                }
                let text = UnsafeBufferPointer(rebasing: buffer[range])
                // Each text is followed by a NUL; unless one is inside it too,
                // SQLite may read it as terminated and skips copying it to add
                // one (length() and json_valid() want terminated text).
                let terminated = text.isEmpty || memchr(text.baseAddress!, 0, text.count) == nil
                try statement.bind(parameters[column], bytes: text, terminated: terminated)
            }
            try statement.bind(3, int: age)
            return statement.stepAndReset()
        }
    }
}
