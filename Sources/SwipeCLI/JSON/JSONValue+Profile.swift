import SwipeCore

extension JSONValue {
    /// A profile keyed as `swipe profiles` prints it (the REPL's `detail`,
    /// the server's `profiles`).
    public static func profile(_ profile: Profile) -> JSONValue {
        .object([
            ("id", .string(profile.id)), ("name", .string(profile.name)), ("age", .number(Double(profile.age))),
            ("gender", .optional(profile.gender)), ("city", .optional(profile.city)), ("bio", .optional(profile.bio)),
            ("photos", .array(profile.photos.map(JSONValue.string))),
            ("interests", .array(profile.interests.map(JSONValue.string))),
        ])
    }
}
