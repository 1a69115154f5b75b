import SwipeCLI
import SwipeStore

/// What `swipe serve` needs from a store, whatever the backend: the secret
/// that signs links, whether a viewer exists, one deck session per
/// WebSocket, and matches made by other serve processes. The executable
/// passes `DatabaseServerBackend` over the database `--db` names; tests may
/// pass their own.
///
/// Every method is synchronous and may block on I/O: the server calls them
/// on its thread pool, never on an event loop.
public protocol ServerBackend: Sendable {
    /// The database's link secret, created if missing.
    func accessSecret() throws -> String
    /// Whether `id` is a profile (a token for a deleted profile is refused).
    func isProfile(_ id: String) throws -> Bool
    /// A new deck session for `viewer`. `onMatch` is called (on the session's
    /// thread) when one of its decisions completes a match, so the server can
    /// tell the other viewer.
    func openSession(viewer: String, onMatch: @escaping @Sendable (MatchNotice) -> Void) throws -> any ViewerSession
    /// Starts calling `deliver` with each match another process makes
    /// (`MatchRelay`), until `stopRelay`.
    func startRelay(deliver: @escaping @Sendable (MatchNotice) -> Void) throws
    func stopRelay()
}

extension ServerBackend {
    /// A backend that no other process shares relays nothing.
    public func startRelay(deliver: @escaping @Sendable (MatchNotice) -> Void) throws {}
    public func stopRelay() {}
}

/// One viewer's deck, driven one line at a time: the REPL's parser, deck and
/// ledger, answering in JSON (one object per line, README "JSON mode").
/// Used from one thread at a time.
public protocol ViewerSession: AnyObject {
    /// Runs one command line and returns the answer: one JSON object, no newline.
    func run(_ line: String) -> String
}

extension MatchNotice {
    /// `{"event":"match","profile":…,"name":…,"matched_at":…}`: `profile`
    /// is the other person, as in the `matches` list.
    public var json: String {
        JSONValue.object([
            ("event", "match"), ("profile", .string(liker)), ("name", .optional(likerName)),
            ("matched_at", .string(matchedAt)),
        ]).serialized
    }
}
