import SwipeCore

/// The deck's feed from the database: the profiles a viewer has not decided,
/// in internal-key order, never the viewer, never a card already in the deck.
///
/// Each fetch is an index search: it walks profiles by key from the viewer's
/// stored cursor (`feed_cursors`: every key at or below it is decided or the
/// viewer), probing the `decisions_standing` index per candidate. The fetch
/// advances the cursor past the decided run it skipped, and `Store.undo` lowers
/// it, so the next card costs the same after 200k decisions as after none.
public final class SQLiteFeed: ProfileFeed {
    private let store: Store
    private let viewerKey: Int
    /// The viewer's external id.
    public let viewer: String

    /// The feed query, exposed so a test can hold its plan to an index search.
    static let nextSQL = """
        SELECT p.key, p.id, p.name, p.age, p.gender, p.city, p.bio, p.photos, p.interests
        FROM profiles AS p
        WHERE p.key > ?1 AND p.key <> ?2
          AND NOT EXISTS (SELECT 1 FROM decisions AS d
                          WHERE d.viewer = ?2 AND d.profile = p.key AND d.undone_at IS NULL)
        ORDER BY p.key
        LIMIT ?3
        """

    /// A feed for `viewer`, who must be a profile.
    public init(store: Store, viewer: String) throws {
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        self.viewer = viewer
        self.viewerKey = key
    }

    public func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        let connection = store.connection
        let cursor = try connection.statement("SELECT after_key FROM feed_cursors WHERE viewer = ?1")
            .bind(.int(viewerKey)).first { $0.int(0) } ?? 0
        var firstUndecided: Int?
        var profiles: [Profile] = []
        try connection.statement(Self.nextSQL)
            .bind(.int(cursor), .int(viewerKey), .int(limit + excluding.count)).forEachRow { row in
                if firstUndecided == nil { firstUndecided = row.int(0) }
                let profile = Store.profile(from: row, offset: 1)
                if profiles.count < limit, !excluding.contains(profile.id) { profiles.append(profile) }
            }
        let decidedThrough = try firstUndecided.map { $0 - 1 }
            ?? connection.scalarInt("SELECT coalesce(max(key), 0) FROM profiles") ?? 0
        if decidedThrough > cursor {
            try connection.statement("""
                INSERT INTO feed_cursors (viewer, after_key) VALUES (?1, ?2)
                ON CONFLICT (viewer) DO UPDATE SET after_key = excluded.after_key
                """).bind(.int(viewerKey), .int(decidedThrough)).run()
        }
        return profiles
    }
}
