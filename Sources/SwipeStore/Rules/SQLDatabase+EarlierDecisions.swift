import SwipeCore

/// What `undo` reaches back to once a session's own decisions are taken
/// back: the viewer's latest standing decision, made in an earlier session
/// or another process (the rewind rule still decides whether it may go).
extension SQLDatabase {
    public func latestStandingDecision(viewer: String) throws -> DeckDecision? {
        try read {
            let viewerKey = try requireKey(viewer)
            guard
                let (profileKey, decision, via) = try executor.first(
                    """
                    SELECT key, profile, decision, via FROM decisions
                    WHERE viewer = $1 AND undone_at IS NULL
                    ORDER BY decided_at DESC, key DESC LIMIT 1
                    """, [.int(viewerKey)],
                    { row -> (Int, Decision, Via) in
                        let key = try row.int("key")
                        return (
                            try row.int("profile"), try row.decoded("decision", key: key),
                            try row.decoded("via", key: key)
                        )
                    }),
                let profile = try profile(key: profileKey)
            else { return nil }
            return DeckDecision(profile: profile, decision: decision, via: via)
        }
    }
}
