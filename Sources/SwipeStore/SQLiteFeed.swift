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
/// below it is decided, blocked or not eligible), or, when the viewer's
/// distance box holds few places, take them from the cells of `profiles_cell`
/// that cover it and sort them.
/// The fetch advances the cursor past the run it rejected, and whatever can
/// make a rejected profile eligible again lowers it, so the next card costs
/// the same after 200k decisions as after none.
public final class SQLiteFeed: ProfileFeed {
    private let store: Store
    private let viewerKey: Int
    /// The viewer's external id.
    public let viewer: String
    /// The last box measured, and its cells when they serve it.
    private var boxChoice: (box: Discovery.Box, cells: [Int]?)?

    /// Boxes holding fewer places than this are served by their cells (nil:
    /// about 2·√N, see `restQuery`); tests set 0 to force the walk by key.
    private let treeLimit: Int?

    /// A feed for `viewer`, who must be a profile.
    public convenience init(store: Store, viewer: String) throws {
        try self.init(store: store, viewer: viewer, treeLimit: nil)
    }

    @_spi(Benchmarks)
    public init(store: Store, viewer: String, treeLimit: Int?) throws {
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        self.viewer = viewer
        self.viewerKey = key
        self.treeLimit = treeLimit
    }

    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        let me = try store.discoveryViewer(key: viewerKey)
        guard !me.seesNobody else { return [] }
        let connection = store.connection
        var profiles: [Profile] = []
        var taken: Set<String> = []
        for kind in [Decision.superlike, .like] where profiles.count < limit {
            try connection.statement(DiscoverySQL.likers).bind(me.parameters(.text(kind.rawValue))).forEachRowWhile { row in
                let profile = Store.profile(from: row, offset: 1)
                if me.accepts(profile), !excluding.contains(profile.id), taken.insert(profile.id).inserted {
                    profiles.append(profile)
                }
                return profiles.count < limit
            }
        }
        guard profiles.count < limit else { return profiles }

        let cursor = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
            .bind(.int(viewerKey)).first { $0.int(0) } ?? 0
        var firstEligible: Int?
        var exhausted = true
        let (restQuery, cells) = try restQuery(for: me)
        var parameters = me.parameters(.int(cursor))
        if let cells { parameters.append(.text("[" + cells.map(String.init).joined(separator: ",") + "]")) }
        try connection.statement(restQuery).bind(parameters).forEachRowWhile { row in
            let profile = Store.profile(from: row, offset: 1)
            guard me.accepts(profile) else { return true }
            if firstEligible == nil { firstEligible = row.int(0) }
            if !excluding.contains(profile.id), taken.insert(profile.id).inserted { profiles.append(profile) }
            exhausted = profiles.count < limit
            return exhausted
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

    /// The query for everyone but the likers, and the cells it binds: the
    /// cells of the viewer's box when they hold at most about 2·√N places
    /// (sorting that few costs less than walking N/places keys per card),
    /// else the walk by key.
    private func restQuery(for me: DiscoveryViewer) throws -> (String, [Int]?) {
        guard let box = me.box, let cells = Discovery.cells(covering: box) else { return (DiscoverySQL.byKey, nil) }
        if let choice = boxChoice, choice.box == box {
            return choice.cells.map { (DiscoverySQL.inCells, $0) } ?? (DiscoverySQL.byKey, nil)
        }
        let total = try store.connection.scalarInt("SELECT coalesce(max(key), 0) FROM profiles") ?? 0
        let threshold = treeLimit ?? max(256, Int(Double(total).squareRoot() * 2))
        let count = try store.connection.statement(DiscoverySQL.cellCount)
            .bind(.text("[" + cells.map(String.init).joined(separator: ",") + "]"), .int(threshold))
            .first { $0.int(0) } ?? 0
        boxChoice = (box, count < threshold ? cells : nil)
        return count < threshold ? (DiscoverySQL.inCells, cells) : (DiscoverySQL.byKey, nil)
    }
}
