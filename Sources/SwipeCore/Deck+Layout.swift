/// Turning slots and poses into `CardView`s and timelines.
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

    /// A two-keyframe timeline.
    func timeline(_ name: String, from start: [CardView], to end: [CardView], _ motion: Motion) -> Timeline {
        Timeline(name: name, duration: motion.duration, keyframes: [
            Keyframe(time: 0, cards: start, curve: .linear),
            Keyframe(time: motion.duration, cards: end, curve: motion.curve),
        ])
    }

    /// Moves parked slots behind the filled ones, keeping both in order.
    mutating func packParkedSlots() {
        order = order.filter { profiles[$0] != nil } + order.filter { profiles[$0] == nil }
    }
}
