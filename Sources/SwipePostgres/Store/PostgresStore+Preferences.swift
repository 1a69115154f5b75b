import SwipeCore
import SwipeStore

extension PostgresStore {
    /// As the SQLite store: applies `change`, returns the profile as stored,
    /// and makes every feed that judged the viewer by the old preferences look again.
    @discardableResult
    public func setPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile {
        try change.validate()
        return try write {
            let key = try requireKey(viewer)
            try lockViewer(key)
            guard let stored = try connection.statement("SELECT \(Self.profileColumns) FROM profiles WHERE key = $1")
                .first([.int(key)], { try Self.profile(from: $0) })
            else { throw StoreError.unknownProfile(viewer) }
            let profile = change.applied(to: stored)
            let preferences = profile.preferences
            try connection.run(
                "UPDATE profiles SET seeking = $2, age_min = $3, age_max = $4, max_km = $5, lat = $6, lon = $7 WHERE key = $1",
                .int(key), preferences.seeking.isEmpty ? .null : .text(preferences.seeking.joined(separator: ";")),
                .int(preferences.ageMin), .int(preferences.ageMax), preferences.maxKm.map(PostgresValue.real) ?? .null,
                profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null)
            try forgetFeedPositions(around: key)
            return profile
        }
    }

    /// After a change to `key`'s preferences or place, `key`'s own feed
    /// starts again and every other feed looks at `key` again.
    func forgetFeedPositions(around key: Int) throws {
        try connection.run("DELETE FROM feed_cursors WHERE viewer = $1", .int(key))
        try connection.run("DELETE FROM liker_cursors WHERE viewer = $1", .int(key))
        try connection.run("""
            DELETE FROM liker_cursors WHERE viewer IN
                (SELECT profile FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision <> 'hate')
            """, .int(key))
        try connection.run("UPDATE feed_cursors SET after_key = $1 - 1 WHERE after_key >= $1", .int(key))
    }
}
