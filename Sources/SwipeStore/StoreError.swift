import SwipeCore

/// Failures of the store that are not SQLite's own, each carrying the values
/// at fault. The descriptions say what is wrong in the store's terms; the
/// executable adds how to fix it with its commands and options.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database was written by a newer swipe.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The database file or its folder could not be created.
    case cannotCreate(path: String, reason: String)
    /// The database file does not exist (and the caller asked not to create it).
    case missing(path: String)
    /// No profile has this external id.
    case unknownProfile(String)
    /// The viewer already holds a standing decision about the profile.
    case alreadyDecided(viewer: String, profile: String, decision: Decision, decidedAt: String)
    /// There is no standing decision to undo.
    case notDecided(viewer: String, profile: String)
    /// A viewer cannot decide about themself.
    case selfDecision(String)

    public var description: String {
        switch self {
        case let .newerSchema(path, found, supported):
            "\(path) has schema version \(found), but this swipe understands up to version \(supported); use a newer swipe"
        case let .cannotCreate(path, reason):
            "cannot create the database \(path): \(reason)"
        case let .missing(path):
            "\(path): no such database"
        case let .unknownProfile(id):
            "no profile has id \"\(id)\""
        case let .alreadyDecided(viewer, profile, decision, decidedAt):
            "\(viewer) already decided \(decision.rawValue) on \(profile) at \(decidedAt)"
        case let .notDecided(viewer, profile):
            "\(viewer) has no standing decision on \(profile) to undo"
        case let .selfDecision(id):
            "\(id) cannot decide about themself"
        }
    }
}
