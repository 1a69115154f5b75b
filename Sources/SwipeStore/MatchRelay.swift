/// A match made by `liker`'s decision, to be pushed to `recipient`.
public struct MatchNotice: Hashable, Sendable {
    /// The viewer to tell (the profile that was liked).
    public var recipient: String
    /// Who liked them back just now.
    public var liker: String
    public var likerName: String?
    /// When the match was made (the later decision's time, as stored).
    public var matchedAt: String

    public init(recipient: String, liker: String, likerName: String?, matchedAt: String) {
        self.recipient = recipient
        self.liker = liker
        self.likerName = likerName
        self.matchedAt = matchedAt
    }
}

/// How a match made in one `swipe serve` process reaches the other viewer's
/// sockets in other processes on the same database. Within one process the
/// server's own hub delivers it; a relay carries it further.
///
/// `LocalMatchRelay` carries nothing (one SQLite file is served by one
/// process); `PostgresMatchRelay` uses LISTEN/NOTIFY, so any number of serve
/// processes on one PostgreSQL database push matches to each other.
public protocol MatchRelay: Sendable {
    /// Starts calling `deliver` with each match another process publishes
    /// (never this one's), until `stop`.
    func start(deliver: @escaping @Sendable (MatchNotice) -> Void) throws
    /// Tells the other processes, once the decision that made it is committed.
    /// Never throws: a match that cannot be relayed is still a match (the
    /// other viewer sees it in their `matches` list).
    func publish(_ notice: MatchNotice)
    func stop()
}

/// One process serves the database: nothing to relay.
public struct LocalMatchRelay: MatchRelay {
    public init() {}
    public func start(deliver: @escaping @Sendable (MatchNotice) -> Void) throws {}
    public func publish(_ notice: MatchNotice) {}
    public func stop() {}
}
