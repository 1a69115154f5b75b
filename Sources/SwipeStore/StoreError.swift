import SwipeCore

/// Refusals of the store's rules (and the store's own integrity checks),
/// each carrying the values at fault. The descriptions say what is wrong in
/// the store's terms; the executable adds how to fix it with its commands
/// and options. Problems opening a database are `DatabaseOpenError`.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No profile has this external id.
    case unknownProfile(String)
    /// The viewer already holds a standing decision about the profile.
    case alreadyDecided(viewer: String, profile: String, decision: Decision, decidedAt: String)
    /// There is no standing decision to undo.
    case notDecided(viewer: String, profile: String)
    /// A viewer cannot decide about themself.
    case selfDecision(String)
    /// A block stands between the two (either way): no decision, no listing.
    case blocked(viewer: String, profile: String)
    /// A viewer cannot block, unblock, unmatch or report themself.
    case selfAction(String, action: String)
    /// `viewer` has already blocked `profile`.
    case alreadyBlocked(viewer: String, profile: String)
    /// `viewer` has not blocked `profile`.
    case notBlocked(viewer: String, profile: String)
    /// There is no standing match between the two.
    case notMatched(viewer: String, profile: String)
    /// A daily quota is used up (rule `likes-per-day` / `superlikes-per-day`).
    case quotaExceeded(decision: Decision, limit: Int, freesAt: String)
    /// The `rewind` rule refuses this undo.
    case rewindRefused(rule: RewindRule, decision: Decision)
    /// A preference, rule or report value that is not allowed.
    case invalidValue(name: String, value: String, expected: String)
    /// A stored value that swipe never writes (a tampered row), named by table, key and column.
    case undecodable(table: String, key: Int, column: String, value: String)
    /// A write that SQLite reported done but that did not store what it was
    /// asked to (a trigger or another program interfered).
    case notStored(table: String, what: String)
    /// A message refused by a rule of conversations (Documentation/REPL.md, "Conversations"), which it names.
    case messageRefused(MessageRefusal)
    /// A photo refused by a rule of photos (Documentation/Photos.md), which it names.
    case photoRefused(PhotoRefusal)
    /// `viewer` is suspended (Documentation/Moderation.md): until `until`, or
    /// for good when nil; they may not decide, send or sign in.
    case suspended(viewer: String, reason: String, until: String?)
    /// Only a moderator may do this (Documentation/Moderation.md).
    case notModerator(String)
    /// No report or flag in the queue has this number.
    case unknownQueueItem(String)

    public var description: String {
        switch self {
        case let .suspended(viewer, reason, until):
            "\(viewer) is suspended " + (until.map { "until \($0)" } ?? "for good") + ": \(reason)"
        case let .notModerator(id):
            "\(id) is not a moderator: only a moderator may do this (swipe moderate grant ID)"
        case let .unknownQueueItem(item):
            "no report or flag is numbered \"\(item)\" (swipe moderate queue lists them)"
        case let .unknownProfile(id):
            "no profile has id \"\(id)\""
        case let .alreadyDecided(viewer, profile, decision, decidedAt):
            "\(viewer) already decided \(decision.rawValue) on \(profile) at \(decidedAt)"
        case let .notDecided(viewer, profile):
            "\(viewer) has no standing decision on \(profile) to undo"
        case let .selfDecision(id):
            "\(id) cannot decide about themself"
        case let .blocked(viewer, profile):
            "\(viewer) and \(profile) are blocked from each other"
        case let .selfAction(id, action):
            "\(id) cannot \(action) themself"
        case let .alreadyBlocked(viewer, profile):
            "\(viewer) has already blocked \(profile)"
        case let .notBlocked(viewer, profile):
            "\(viewer) has not blocked \(profile)"
        case let .notMatched(viewer, profile):
            "\(viewer) and \(profile) have no match to end"
        case let .quotaExceeded(decision, limit, freesAt):
            "no \(decision.rawValue)s left until \(freesAt) (rule \(decision.rawValue)s-per-day: \(limit) a day)"
        case let .rewindRefused(rule, decision):
            switch rule {
            case .off: "undo is off (rule rewind: off)"
            case .passes: "only a pass can be taken back, not a \(decision.rawValue) (rule rewind: passes)"
            case .last: "only the most recent decision can be taken back, once (rule rewind: last)"
            case .any: "undo refused"
            }
        case let .invalidValue(name, value, expected):
            "\(name) must be \(expected), not \"\(value)\""
        case let .undecodable(table, key, column, value):
            "\(table) row \(key) holds \(column) \"\(value)\", which swipe never writes (the database was changed by another program)"
        case let .notStored(table, what):
            "\(what) was not stored in \(table): the database reported the write but the row is not there "
                + "(a trigger or another program interfered); nothing was acknowledged"
        case let .messageRefused(refusal):
            refusal.description
        case let .photoRefused(refusal):
            refusal.description
        }
    }
}

/// Problems opening a database: it is missing, not swipe's, of another
/// schema version, or out of reach (permissions, a folder that cannot be
/// made), each naming the file or URI. Refusals of the rules once it is open
/// are `StoreError`.
public enum DatabaseOpenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database was written by a newer swipe.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The database was written by an older swipe and must be upgraded by a
    /// command that writes before a read-only one can use it.
    case olderSchema(path: String, found: Int, supported: Int)
    /// The database file or its folder could not be created.
    case cannotCreate(path: String, reason: String)
    /// The database file does not exist (and the caller asked not to create it).
    case missing(path: String)
    /// The file is not a swipe database (another program's SQLite file, an
    /// empty file, a text file, a schema version swipe never wrote).
    case notSwipeDatabase(path: String)
    /// The file or folder lacks a permission swipe needs. `need` says which
    /// (`read`, `write`), `why` what for.
    case permissionDenied(path: String, need: String, why: String)

    public var description: String {
        switch self {
        case let .newerSchema(path, found, supported):
            "\(path) has schema version \(found), but this swipe understands up to version \(supported); use a newer swipe"
        case let .olderSchema(path, found, supported):
            "\(path) has schema version \(found), older than this swipe's \(supported), and opening it read-only cannot upgrade it"
        case let .cannotCreate(path, reason):
            "cannot create the database \(path): \(reason)"
        case let .missing(path):
            "\(path): no such database"
        case let .notSwipeDatabase(path):
            "\(path): not a swipe database"
        case let .permissionDenied(path, need, why):
            "\(path): no \(need) permission (\(why))"
        }
    }
}
