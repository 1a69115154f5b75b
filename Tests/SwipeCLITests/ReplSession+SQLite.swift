import SwipeSQLite
import SwipeStore

@testable import SwipeCLI
@testable import SwipeSession

extension ReplSession {
    /// `viewer`'s session over `store`, as `swipe repl --as viewer` opens
    /// one: the viewer's feed and ledger on that store; `pictures` false
    /// keeps text answers to the card's words.
    static func over(
        _ store: SQLiteStore, viewer: String, format: ReplFormat, pictures: Bool = true
    ) throws -> ReplSession {
        var session = try ReplSession(
            feed: try SQLiteFeed(store: store, viewer: viewer), ledger: ViewerScope(store: store, viewer: viewer),
            format: format)
        if !pictures { session.layout = ReplLayout(pictures: false) }
        return session
    }
}
