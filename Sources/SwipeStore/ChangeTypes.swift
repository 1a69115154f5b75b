/// A row of the change log (`SwipeChangeLog`): what a serving process reads
/// to push to open sockets what another process stored (Documentation/Serve.md,
/// "Pushes across processes").
public struct ChangedDecision: Hashable, Sendable {
    /// The decision's key: the log's order.
    public var key: Int
    /// The match this decision made, when it made one that still stands:
    /// the decision's viewer is the liker, its profile the one told.
    public var match: MatchNotice?

    public init(key: Int, match: MatchNotice?) {
        self.key = key
        self.match = match
    }
}

/// A message of the change log, with its key and its sender's name.
public struct ChangedMessage: Hashable, Sendable {
    public var key: Int
    public var message: Message
    public var senderName: String

    public init(key: Int, message: Message, senderName: String) {
        self.key = key
        self.message = message
        self.senderName = senderName
    }
}

/// The newest keys of the decision and message logs: a change check reads
/// these two index ends and reads the rows only when either moved. And how
/// many people were ever erased (`settings('erasures')`, one row by its key):
/// when it moves, the server checks which of the people it holds open are gone.
public struct ChangeMarks: Hashable, Sendable {
    public var decision: Int
    public var message: Int
    public var erasures: Int

    public init(decision: Int, message: Int, erasures: Int = 0) {
        self.decision = decision
        self.message = message
        self.erasures = erasures
    }
}
