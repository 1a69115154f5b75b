/// What one viewer's write did that other people must hear of, handed up by
/// `ViewerScope` once the write is stored: the one value in place of a
/// callback per kind. `swipe serve` pushes each to the open pages it
/// concerns; a REPL holding the database has no one to tell and passes none.
///
/// Each is told after the store committed it and never for a write that
/// changed nothing: a message's retry that found it stored is not told twice.
public enum StoreEvent: Hashable, Sendable {
    /// A decision of the viewer made a match: the notice for the other
    /// person (`recipient`), with the viewer's name as they are shown it.
    case matched(MatchNotice)
    /// The viewer's message was stored, with the name its recipient sees.
    case messageSent(Message, senderName: String)
    /// The viewer blocked `other` (or reported them, which blocks): both
    /// sides' open decks let the card go.
    case blocked(other: String)
    /// The viewer ended the match with `other`: an unmatch, or an undo of
    /// the like that made it. An open conversation closes on both sides.
    case unmatched(other: String)
    /// The viewer erased themself; their matches' open pages hear it ended.
    case erased(Erasure)
}
