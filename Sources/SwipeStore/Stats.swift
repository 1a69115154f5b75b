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

    public init(
        profiles: Int, viewers: Int, decisions: Int, undone: Int, likes: Int, hates: Int, superlikes: Int, matches: Int,
        missedMatches: Int
    ) {
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

    public init(
        viewer: String, decided: Int, likesGiven: Int, superlikesGiven: Int, hatesGiven: Int, likesReceived: Int,
        superlikesReceived: Int, matches: Int, undone: Int
    ) {
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
