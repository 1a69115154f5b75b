import SwipeCore
import SwipeStore

/// Reads a profile from the feed queries' rows (`PostgresDiscoverySQL.columns`:
/// the key, then the fourteen stored columns in schema order), exactly as
/// the SQLite store reads its own.
enum PostgresProfileRow {
    /// The internal key (column 0).
    static func key(_ row: PGRow) throws -> Int { try row.int(0) }

    /// The profile in columns 1…14.
    static func profile(_ row: PGRow) throws -> Profile {
        Profile(
            id: try row.text(1), name: try row.text(2), age: try row.int(3),
            gender: try row.optionalText(4), city: try row.optionalText(5), bio: try row.optionalText(6),
            photos: strings(try row.text(7)), interests: strings(try row.text(8)),
            location: try row.isNull(9) ? nil : Location(lat: try row.double(9), lon: try row.double(10)),
            preferences: Preferences(
                seeking: try row.optionalText(11).map { $0.split(separator: ";").map(String.init) } ?? [],
                ageMin: try row.int(12), ageMax: try row.int(13),
                maxKm: try row.optionalDouble(14)))
    }

    /// The row's position in the likers' order (decided_at, decision key), after the profile.
    static func likePosition(_ row: PGRow) throws -> LikePosition {
        LikePosition(at: try row.text(15), key: try row.int(16))
    }

    private static func strings(_ json: String) -> [String] {
        json == "[]" ? [] : JSONText.strings(fromArray: json) ?? []
    }
}

/// Where a like stands in the likers' order: its time, then its decision key.
struct LikePosition: Comparable {
    var at: String
    var key: Int

    static let start = LikePosition(at: "", key: 0)

    static func < (a: LikePosition, b: LikePosition) -> Bool { (a.at, a.key) < (b.at, b.key) }
}
