import Foundation
import SwipeCore

extension Store {
    /// What an upsert did.
    public enum UpsertOutcome: Sendable { case inserted, updated }

    static let profileColumns = "id, name, age, gender, city, bio, photos, interests"

    /// Inserts `profile`, or updates the profile with the same id in place
    /// (keeping its internal key, so decisions and the feed order survive).
    @discardableResult
    public func upsert(_ profile: Profile) throws -> UpsertOutcome {
        let values: [SQLiteValue] = [
            .text(profile.id), .text(profile.name), .int(profile.age), .optionalText(profile.gender),
            .optionalText(profile.city), .optionalText(profile.bio), .text(JSONText.array(profile.photos)),
            .text(JSONText.array(profile.interests)),
        ]
        if try profileKey(id: profile.id) != nil {
            try connection.statement("""
                UPDATE profiles SET name = ?2, age = ?3, gender = ?4, city = ?5, bio = ?6, photos = ?7, interests = ?8
                WHERE id = ?1
                """).bind(values).run()
            return .updated
        }
        try connection.statement("""
            INSERT INTO profiles (\(Self.profileColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """).bind(values).run()
        return .inserted
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
