import SwipeCore
import SwipeStore

extension ReplAnswer {
    /// JSON members for a discovery command: `notice`, `preferences`, `likes`, `withdrawn`.
    package static func discoveryMembers(_ answer: DiscoveryAnswer) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let notice = answer.notice { members.append(("notice", .string(notice))) }
        if let profile = answer.preferences {
            let p = profile.preferences
            members.append(
                (
                    "preferences",
                    .object([
                        ("seeking", .array(p.seeking.map(JSONValue.string))), ("age_min", .number(Double(p.ageMin))),
                        ("age_max", .number(Double(p.ageMax))), ("max_km", p.maxKm.map(JSONValue.number) ?? .null),
                        ("lat", profile.location.map { .number($0.lat) } ?? .null),
                        ("lon", profile.location.map { .number($0.lon) } ?? .null),
                    ])
                ))
        }
        if let likes = answer.likes {
            members.append(
                (
                    "likes",
                    .array(
                        likes.map { liker in
                            .object([
                                ("profile", .string(liker.profile)), ("name", .string(liker.name)),
                                ("decision", .string(liker.decision.rawValue)), ("decided_at", .string(liker.likedAt)),
                            ])
                        })
                ))
        }
        if let (profile, reasons) = answer.reasons {
            members.append(
                ("why", .object([("profile", .string(profile)), ("reasons", .array(reasons.map(JSONValue.string)))])))
        }
        if !answer.withdrawn.isEmpty { members.append(("withdrawn", .array(answer.withdrawn.map(JSONValue.string)))) }
        return members
    }

    /// A profile's discovery fields, keyed as `swipe profiles` prints them.
    package static func discoveryFields(_ profile: Profile) -> [(String, JSONValue)] {
        let p = profile.preferences
        return [
            ("lat", profile.location.map { .number($0.lat) } ?? .null),
            ("lon", profile.location.map { .number($0.lon) } ?? .null),
            ("seeking", .array(p.seeking.map(JSONValue.string))),
            ("age_min", .number(Double(p.ageMin))), ("age_max", .number(Double(p.ageMax))),
            ("max_km", p.maxKm.map(JSONValue.number) ?? .null),
        ]
    }
}
