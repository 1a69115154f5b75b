import SwipeCore
import SwipeStore

/// Reads a profile from the feed queries' rows (`PostgresDiscoverySQL.columns`:
/// the key, then the fourteen stored columns in schema order), exactly as
/// the SQLite store reads its own.
enum PostgresProfileRow {
    /// The internal key (column 0).
    static func key(_ row: PGRow) throws -> Int { try row.int(0) }

    /// The profile in columns 1…14, read as the store reads its own rows.
    static func profile(_ row: PGRow) throws -> Profile { try Profile(row: row) }

    /// The row's position in the likers' order (decided_at, decision key), after the profile.
    static func likePosition(_ row: PGRow) throws -> LikePosition {
        LikePosition(at: try row.text(15), key: try row.int(16))
    }
}

/// Where a like stands in the likers' order: its time, then its decision key.
struct LikePosition: Comparable {
    var at: String
    var key: Int

    static let start = LikePosition(at: "", key: 0)

    static func < (a: LikePosition, b: LikePosition) -> Bool { (a.at, a.key) < (b.at, b.key) }
}
