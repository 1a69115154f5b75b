/// Counts over the whole database, for `swipe stats`.
public struct StoreStats: Hashable, Sendable {
    public var profiles: Int
    public var viewers: Int
    public var decisions: Int
    public var undone: Int
    public var likes: Int
    public var hates: Int
    public var superlikes: Int
    public var matches: Int
    public var missedMatches: Int

    public init(profiles: Int, viewers: Int, decisions: Int, undone: Int, likes: Int, hates: Int, superlikes: Int, matches: Int, missedMatches: Int) {
        self.profiles = profiles
        self.viewers = viewers
        self.decisions = decisions
        self.undone = undone
        self.likes = likes
        self.hates = hates
        self.superlikes = superlikes
        self.matches = matches
        self.missedMatches = missedMatches
    }
}

extension Store {
    /// Counts of profiles, decisions (standing ones by kind), matches.
    public func stats() throws -> StoreStats {
        try connection.statement("""
            SELECT
              (SELECT count(*) FROM profiles),
              (SELECT count(DISTINCT viewer) FROM decisions),
              (SELECT count(*) FROM decisions),
              (SELECT count(*) FROM decisions WHERE undone_at IS NOT NULL),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'hate'),
              (SELECT count(*) FROM decisions WHERE undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM matches WHERE unmatched_at IS NULL),
              (SELECT count(*) FROM missed_matches)
            """).bind().first { row in
            StoreStats(
                profiles: row.int(0), viewers: row.int(1), decisions: row.int(2), undone: row.int(3),
                likes: row.int(4), hates: row.int(5), superlikes: row.int(6), matches: row.int(7),
                missedMatches: row.int(8))
        }!
    }
}

/// One viewer's counts, for `swipe stats --as`: standing decisions they
/// made, standing likes they received, and their current matches.
public struct ViewerStats: Hashable, Sendable {
    public var viewer: String
    /// Standing decisions the viewer made (likes, superlikes and hates).
    public var decided: Int
    public var likesGiven: Int
    public var superlikesGiven: Int
    public var hatesGiven: Int
    /// Standing likes (superlikes apart) others hold of the viewer.
    public var likesReceived: Int
    public var superlikesReceived: Int
    public var matches: Int
    /// The viewer's decisions taken back with undo.
    public var undone: Int

    public init(viewer: String, decided: Int, likesGiven: Int, superlikesGiven: Int, hatesGiven: Int, likesReceived: Int, superlikesReceived: Int, matches: Int, undone: Int) {
        self.viewer = viewer
        self.decided = decided
        self.likesGiven = likesGiven
        self.superlikesGiven = superlikesGiven
        self.hatesGiven = hatesGiven
        self.likesReceived = likesReceived
        self.superlikesReceived = superlikesReceived
        self.matches = matches
        self.undone = undone
    }
}

extension Store {
    /// `viewer`'s counts (index searches on the viewer's and the received side).
    ///
    /// - Throws: `StoreError.unknownProfile`.
    public func stats(viewer: String) throws -> ViewerStats {
        let key = try requireKey(viewer)
        return try connection.statement("""
            SELECT
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision = 'hate'),
              (SELECT count(*) FROM decisions WHERE profile = ?1 AND undone_at IS NULL AND decision = 'like'),
              (SELECT count(*) FROM decisions WHERE profile = ?1 AND undone_at IS NULL AND decision = 'superlike'),
              (SELECT count(*) FROM matches WHERE low = ?1) + (SELECT count(*) FROM matches WHERE high = ?1),
              (SELECT count(*) FROM decisions WHERE viewer = ?1 AND undone_at IS NOT NULL)
            """).bind(.int(key)).first { row in
            ViewerStats(
                viewer: viewer, decided: row.int(0), likesGiven: row.int(1), superlikesGiven: row.int(2),
                hatesGiven: row.int(3), likesReceived: row.int(4), superlikesReceived: row.int(5),
                matches: row.int(6), undone: row.int(7))
        }!
    }
}
