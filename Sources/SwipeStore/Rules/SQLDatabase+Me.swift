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
            // The column name comes from the enum, never from input.
            try executor.run("UPDATE profiles SET \(edit.column) = $2 WHERE key = $1", [.int(key), edit.value])
            if edit.changesEligibility { try forgetFeedPositions(around: key) }
            try noteActivity(key, at: now)
            guard let profile = try profile(key: key) else { throw StoreError.unknownProfile(viewer) }
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
