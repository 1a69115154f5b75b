import SwipeCore
import SwipeStore

extension JSONValue {
    /// A profile keyed as `swipe profiles` prints it (the REPL's `detail`):
    /// for the database's owner at their terminal, place and preferences included.
    public static func profile(_ profile: Profile) -> JSONValue {
        ReplAnswer.profileObject(profile)
    }

    /// A profile as another person is shown it (`swipe serve`'s cards and
    /// detail pages): what the page shows, and `distance_km`, whole km from
    /// the viewer's coarsened place (`Discovery.shownDistanceKm`; null when
    /// either has no place). Never their coordinates or preferences.
    /// `photoPath` gives each photo item as this viewer is handed it (a
    /// server adds the grant that lets them load it, `PhotoGrant`).
    public static func peerProfile(
        _ profile: Profile, seenFrom viewer: Location?, photoPath: (String) -> String = { $0 }
    ) -> JSONValue {
        .object([
            ("id", .string(profile.id)), ("name", .string(profile.name)), ("age", .number(Double(profile.age))),
            ("gender", .optional(profile.gender)), ("city", .optional(profile.city)), ("bio", .optional(profile.bio)),
            ("photos", .array(profile.photos.map { .string(photoPath($0)) })),
            ("interests", .array(profile.interests.map(JSONValue.string))),
            (
                "distance_km",
                Discovery.shownDistanceKm(from: viewer, to: profile.location)
                    .map { .number(Double($0)) } ?? .null
            ),
        ])
    }
}
