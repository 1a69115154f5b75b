import SwipeCore

/// The refusal a viewer's scope throws when the viewer already holds a decision on
/// the profile: another session (or a decisions import) decided it after
/// this deck drew the card. The session answers it by withdrawing the card.
///
/// It is also thrown when the profile is gone from the database (deleted by
/// another program while its card was on the deck): the card leaves the
/// same way, and the session goes on.
public struct DecidedElsewhere: Error, CustomStringConvertible {
    /// What happened, as the store says it.
    public var description: String
    /// The profile the viewer had already decided (or that is gone).
    public var profileID: String
    /// Where it happened, as the session's message says it after `description`.
    public var place: String

    public init(_ description: String, profileID: String, place: String = " (in another session)") {
        self.description = description
        self.profileID = profileID
        self.place = place
    }

    /// The profile is gone from the database, or as good as gone: a block
    /// between the viewer and them, made elsewhere, is answered in exactly
    /// these words, so that nobody learns from it that they were blocked.
    public static func gone(_ id: String) -> DecidedElsewhere {
        DecidedElsewhere("\(id) is no longer in the database", profileID: id, place: " (deleted by another program)")
    }
}
