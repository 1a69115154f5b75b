import SwipeCore
import SwipeSession
import SwipeStore

/// Column names and cells for what the query commands print. JSON keys are
/// the column names, so `swipe profiles --format json` has the README's keys.
public enum StoreRecords {
    public static let profileColumns = [
        "id", "name", "age", "gender", "city", "bio", "photos", "interests",
        "lat", "lon", "seeking", "age_min", "age_max", "max_km",
    ]

    public static func cells(_ profile: Profile) -> [Cell] {
        let p = profile.preferences
        return [
            .text(profile.id), .text(profile.name), .int(profile.age), .optional(profile.gender),
            .optional(profile.city), .optional(profile.bio), .list(profile.photos), .list(profile.interests),
            profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null,
            .list(p.seeking), .int(p.ageMin), .int(p.ageMax), p.maxKm.map(Cell.real) ?? .null,
        ]
    }

    public static let historyColumns = ["profile", "name", "decision", "via", "decided_at", "undone_at"]

    public static func cells(_ entry: HistoryEntry) -> [Cell] {
        [
            .text(entry.profile), .text(entry.name), .text(entry.decision.rawValue), .text(entry.via.rawValue),
            .text(entry.decidedAt), .optional(entry.undoneAt),
        ]
    }

    public static let matchColumns = ["profile", "name", "matched_at"]

    public static func cells(_ match: Match) -> [Cell] {
        [.text(match.profile), .text(match.name), .text(match.matchedAt)]
    }
}

extension StoreRecords {
    public static let missedColumns = ["profile", "name", "their_decision", "liked_at", "passed_at"]

    public static func cells(_ missed: MissedMatch) -> [Cell] {
        [
            .text(missed.profile), .text(missed.name), .text(missed.theirDecision.rawValue), .text(missed.likedAt),
            .text(missed.passedAt),
        ]
    }
}
