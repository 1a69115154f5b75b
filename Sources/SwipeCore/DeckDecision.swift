/// A decision the deck made, emitted exactly once per removal, about the
/// profile that was on the top card when it was made.
public struct DeckDecision: Hashable, Sendable {
    public var profile: Profile
    public var decision: Decision
    public var via: Via

    public init(profile: Profile, decision: Decision, via: Via) {
        self.profile = profile
        self.decision = decision
        self.via = via
    }
}
