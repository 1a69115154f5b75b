import SwipeStore
import SwipeCore

/// The deck's feed from the database (README "Discovery"): exactly the
/// profiles the viewer may be shown, both ways, never the viewer, never a
/// card already in the deck; first those holding a standing superlike of the
/// viewer, then a standing like, each oldest first; then everyone else in
/// internal-key order.
///
/// Each fetch is index searches (`DiscoverySQL`, plans held by tests): the
/// likers are one range of `decisions_likers`; the rest walk the profiles by
/// key from the viewer's stored cursor (`feed_cursors`: every key at or
/// below it is decided, blocked or not eligible). A viewer with a distance
/// box walks instead the few 1-degree cells that cover it, each a range of
/// `profiles_cell` in key order, merged as they are read, so a small town
/// costs what its few candidates cost. The fetch advances the cursor past the
/// run it rejected, and whatever can make a rejected profile eligible again
/// lowers it, so the next card costs the same after 200k decisions as after none.
public final class SQLiteFeed: ProfileFeed {
    private let store: SQLiteStore
    private let viewerKey: Int
    /// The viewer's external id.
    public let viewer: String
    /// Boxes covering at most this many cells are walked by cell (nil: 64);
    /// tests and the benchmark's scan set 0 to force the walk by key.
    private let cellLimit: Int?
    /// One prepared `DiscoverySQL.inCell` per cell being merged: the cache
    /// holds one statement per SQL text, and the merge steps several at once.
    private var cellStatements: [Statement] = []

    /// A feed for `viewer`, who must be a profile.
    public convenience init(store: SQLiteStore, viewer: String) throws {
        try self.init(store: store, viewer: viewer, cellLimit: nil)
    }

    /// With `cellLimit`, for swipe-bench (the same package) to measure the cell walk.
    package init(store: SQLiteStore, viewer: String, cellLimit: Int?) throws {
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        self.viewer = viewer
        self.viewerKey = key
        self.cellLimit = cellLimit
    }

    /// One write transaction (BEGIN IMMEDIATE, or a savepoint inside the
    /// caller's): another process cannot make a profile eligible between
    /// the walk passing it and the cursor moving past it. Whatever makes one
    /// eligible lowers the cursors in a write of its own, which then waits
    /// for this one and lowers the cursor it saved.
    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        return try store.connection.writeTransaction { try fetch(limit: limit, excluding: excluding) }
    }

    private func fetch(limit: Int, excluding: Set<String>) throws -> [Profile] {
        let me = try store.discoveryViewer(key: viewerKey)
        guard !me.seesNobody else { return [] }
        let connection = store.connection
        var profiles: [Profile] = []
        var taken: Set<String> = []
        for kind in [Decision.superlike, .like] where profiles.count < limit {
            let position = try connection.statement("""
                SELECT after_at, after_key FROM liker_cursors WHERE viewer = ?1 AND decision = ?2
                """).bind(.int(viewerKey), .text(kind.rawValue)).first { ($0.text(0), $0.int(1)) } ?? ("", 0)
            // The last like passed before the first eligible one: the new position.
            var rejectedThrough: (at: String, key: Int)?
            var sawEligible = false
            try connection.statement(DiscoverySQL.likers)
                .bind(me.parameters(.text(kind.rawValue)) + [.text(position.0), .int(position.1)]).forEachRowWhile { row in
                    let profile = try Profile(row: row)
                    guard row.int(17) == 1, me.accepts(profile) else {
                        if !sawEligible { rejectedThrough = (row.text(15), row.int(16)) }
                        return true
                    }
                    sawEligible = true
                    if !excluding.contains(profile.id), taken.insert(profile.id).inserted { profiles.append(profile) }
                    return profiles.count < limit
                }
            if let rejectedThrough {
                try connection.statement("""
                    INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (viewer, decision) DO UPDATE SET after_at = excluded.after_at, after_key = excluded.after_key
                    """).bind(.int(viewerKey), .text(kind.rawValue), .text(rejectedThrough.at), .int(rejectedThrough.key)).run()
            }
        }
        guard profiles.count < limit else { return profiles }

        let cursor = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
            .bind(.int(viewerKey)).first { $0.int(0) } ?? 0
        var firstEligible: Int?
        var exhausted = true
        // Rows come in key order, whether from one walk or merged from the cells.
        let take = { (key: Int, profile: Profile) -> Bool in
            guard me.accepts(profile) else { return true }
            if firstEligible == nil { firstEligible = key }
            if !excluding.contains(profile.id), taken.insert(profile.id).inserted { profiles.append(profile) }
            exhausted = profiles.count < limit
            return exhausted
        }
        if let box = me.box, let cells = Discovery.cells(covering: box, limit: cellLimit ?? 64), !cells.isEmpty {
            try mergeCells(cells, me: me, cursor: cursor, take)
        } else {
            try connection.statement(DiscoverySQL.byKey).bind(me.parameters(.int(cursor))).forEachRowWhile { row in
                take(row.int(0), try Profile(row: row))
            }
        }
        let rejectedThrough = try firstEligible.map { $0 - 1 }
            ?? (exhausted ? connection.scalarInt("SELECT coalesce(max(key), 0) FROM profiles") ?? 0 : cursor)
        if rejectedThrough > cursor {
            try connection.statement("""
                INSERT INTO feed_cursors (viewer, after_key) VALUES (?1, ?2)
                ON CONFLICT (viewer) DO UPDATE SET after_key = excluded.after_key
                """).bind(.int(viewerKey), .int(rejectedThrough)).run()
        }
        return profiles
    }

    /// Reads the cells' ranges after `cursor` as one sequence in key order:
    /// each cell's statement is stepped only when its row is the smallest
    /// key waiting, and `take` says when to stop.
    private func mergeCells(
        _ cells: [Int], me: DiscoveryViewer, cursor: Int, _ take: (Int, Profile) -> Bool
    ) throws {
        while cellStatements.count < cells.count {
            cellStatements.append(try Statement(connection: store.connection, sql: DiscoverySQL.inCell))
        }
        let statements = Array(cellStatements.prefix(cells.count))
        defer { for statement in statements { statement.reset() } }
        // The row each cell has ready (key and profile), nil once it is done.
        var heads: [(key: Int, profile: Profile)?] = []
        for (statement, cell) in zip(statements, cells) {
            try statement.bind(me.parameters(.int(cursor)) + [.int(cell)])
            heads.append(try statement.step() ? (statement.row.int(0), Profile(row: statement.row)) : nil)
        }
        while let next = heads.indices.filter({ heads[$0] != nil }).min(by: { heads[$0]!.key < heads[$1]!.key }) {
            let (key, profile) = heads[next]!
            guard take(key, profile) else { return }
            let statement = statements[next]
            heads[next] = try statement.step() ? (statement.row.int(0), Profile(row: statement.row)) : nil
        }
    }
}
