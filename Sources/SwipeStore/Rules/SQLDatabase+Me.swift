import Foundation
import SwipeCore

/// Editing one's own profile (`me set`, Documentation/PersonalData.md).
extension SQLDatabase {
    @discardableResult
    public func editProfile(viewer: String, _ edit: ProfileEdit, at date: Date? = nil) throws -> Profile {
        try edit.validate()
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            let key = try requireKey(viewer)
            try executor.lockViewer(key)
            let sql = edit.updateSQL
            try executor.run(sql, [.int(key), edit.value])
            if edit.changesEligibility { try forgetFeedPositions(around: key) }
            try noteActivity(key, at: now)
            guard let profile = try profile(key: key) else { throw StoreError.unknownProfile(viewer) }
            return profile
        }
    }

    /// `setPreferences` as the person's own edit (`me set place|seeking|ages|km`):
    /// in the same transaction, it counts as their activity, as any `me set` does.
    @discardableResult
    public func editPreferences(viewer: String, _ change: PreferencesChange, at date: Date? = nil) throws -> Profile {
        try change.validate()
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            let profile = try applyPreferences(viewer: viewer, change)
            try noteActivity(try requireKey(viewer), at: now)
            return profile
        }
    }

    /// Stamps `key`'s last act (`rank_stats.last_active_at`, the ranking's
    /// activity signal) at `now`, unless a later one is stored: editing
    /// one's profile or preferences is using the app.
    package func noteActivity(_ key: Int, at now: String) throws {
        let updated = try executor.run(
            "UPDATE rank_stats SET last_active_at = $2 WHERE profile = $1 AND (last_active_at IS NULL OR last_active_at < $2)",
            [.int(key), .text(now)])
        if updated == 0 {
            try executor.run(
                "INSERT INTO rank_stats (profile, last_active_at) VALUES ($1, $2) ON CONFLICT (profile) DO NOTHING",
                [.int(key), .text(now)])
        }
    }
}
