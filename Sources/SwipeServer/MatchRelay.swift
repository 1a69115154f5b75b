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
