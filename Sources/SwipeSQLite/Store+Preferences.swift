import SwipeCSV
import SwipeStore
import Foundation
import SwipeCore

extension Store {
    /// Applies `change` to `viewer`'s preferences and returns the profile as
    /// it now is. Feeds that passed over profiles for the old preferences
    /// (the viewer's, and every feed that judged the viewer by them) look again.
    ///
    /// - Throws: `StoreError.unknownProfile`, `StoreError.invalidValue`.
    @discardableResult
    public func setPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile {
        try change.validate()
        return try connection.writeTransaction {
            let key = try requireKey(viewer)
            guard let stored = try profile(id: viewer) else { throw StoreError.unknownProfile(viewer) }
            let profile = change.applied(to: stored)
            let preferences = profile.preferences
            try connection.statement("""
                UPDATE profiles SET seeking = ?2, age_min = ?3, age_max = ?4, max_km = ?5, lat = ?6, lon = ?7
                WHERE key = ?1
                """).bind(.int(key), preferences.seeking.isEmpty ? .null : .text(preferences.seeking.joined(separator: ";")),
                          .int(preferences.ageMin), .int(preferences.ageMax),
                          preferences.maxKm.map(SQLiteValue.real) ?? .null,
                          profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null)
                .run()
            try forgetFeedPositions(around: key)
            return profile
        }
    }

    /// Feeds resume from a cursor past profiles they judged ineligible:
    /// after a change to `key`'s preferences or place, `key`'s own feed
    /// starts again and every other feed looks at `key` again.
    func forgetFeedPositions(around key: Int) throws {
        try connection.statement("DELETE FROM feed_cursors WHERE viewer = ?1").bind(.int(key)).run()
        try connection.statement("DELETE FROM liker_cursors WHERE viewer = ?1").bind(.int(key)).run()
        // Those `key` likes may now find `key` eligible among their likers.
        try connection.statement("""
            DELETE FROM liker_cursors WHERE viewer IN
                (SELECT profile FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision <> 'hate')
            """).bind(.int(key)).run()
        try connection.statement("UPDATE feed_cursors SET after_key = ?1 - 1 WHERE after_key >= ?1")
            .bind(.int(key)).run()
    }
}
