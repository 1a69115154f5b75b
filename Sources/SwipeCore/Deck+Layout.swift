/// Turning slots and poses into `CardView`s.
extension Deck {
    /// Cards in state order with `poses` given by state rank; parked slots
    /// are invisible.
    func views(_ poses: [CardPose]) -> [CardView] {
        order.enumerated().map { rank, slot in
            let profile = profiles[slot]
            let pose = profile == nil ? poses[rank].with(alpha: 0) : poses[rank]
            return CardView(slot: slot, state: CardState(rank: rank), profile: profile, pose: pose)
        }
    }

    var restingPoses: [CardPose] {
        CardState.allCases.map(preset.resting)
    }

    func restingViews() -> [CardView] {
        views(restingPoses)
    }

    /// The top card at `top`, every card below moved up one state (TanTan's
    /// "as at main = 1"; `other` takes third's place, which in `tantan` is
    /// where it already is).
    func advancedViews(top: CardPose) -> [CardView] {
        views([top] + CardState.allCases.dropLast().map(preset.resting))
    }
}
