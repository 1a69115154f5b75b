import Foundation
import SwipeCore

extension SQLDatabase {
    /// Applies `change` to `viewer`'s preferences and returns the profile as
    /// it now is. Feeds that passed over profiles for the old preferences
    /// (the viewer's, and every feed that judged the viewer by them) look again.
    ///
    /// - Throws: `StoreError.unknownProfile`, `StoreError.invalidValue`.
    @discardableResult
    public func setPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile {
        try change.validate()
        return try write { try applyPreferences(viewer: viewer, change) }
    }

    /// `setPreferences` inside a write transaction already open.
    package func applyPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile {
        do {
            let key = try requireKey(viewer)
            try executor.lockViewer(key)
            guard let stored = try profile(key: key) else { throw StoreError.unknownProfile(viewer) }
            let profile = change.applied(to: stored)
            let preferences = profile.preferences
            try executor.run(
                "UPDATE profiles SET seeking = $2, age_min = $3, age_max = $4, max_km = $5, lat = $6, lon = $7 WHERE key = $1",
                [
                    .int(key), preferences.seeking.isEmpty ? .null : .text(preferences.seeking.joined(separator: ";")),
                    .int(preferences.ageMin), .int(preferences.ageMax), .optionalReal(preferences.maxKm),
                    .optionalReal(profile.location?.lat), .optionalReal(profile.location?.lon),
                ])
            try forgetFeedPositions(around: key)
            return profile
        }
    }

    /// Feeds resume from a cursor past profiles they judged ineligible:
    /// after a change to `key`'s preferences or place, `key`'s own feed
    /// starts again and every other feed looks at `key` again.
    package func forgetFeedPositions(around key: Int) throws {
        try executor.run("DELETE FROM feed_cursors WHERE viewer = $1", [.int(key)])
        try executor.run("DELETE FROM liker_cursors WHERE viewer = $1", [.int(key)])
        // Those `key` likes may now find `key` eligible among their likers.
        try executor.run(
            """
            DELETE FROM liker_cursors WHERE viewer IN
                (SELECT profile FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision <> 'hate')
            """, [.int(key)])
        try executor.run("UPDATE feed_cursors SET after_key = $1 - 1 WHERE after_key >= $1", [.int(key)])
    }
}
