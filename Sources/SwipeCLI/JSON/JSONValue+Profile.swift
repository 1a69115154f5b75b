import SwipeCore

extension JSONValue {
    /// A profile keyed as `swipe profiles` prints it (the REPL's `detail`,
    /// the server's `profiles`).
    public static func profile(_ profile: Profile) -> JSONValue {
        ReplAnswer.profileObject(profile)
    }
}
