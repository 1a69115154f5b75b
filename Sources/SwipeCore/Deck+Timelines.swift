/// The animations the deck plays, built from the preset and the slots.
extension Deck {
    /// A two-keyframe timeline.
    func timeline(_ kind: Timeline.Kind, from start: [CardView], to end: [CardView], _ motion: Motion) -> Timeline {
        Timeline(
            kind: kind, duration: motion.duration,
            keyframes: [
                Keyframe(time: 0, cards: start, curve: .linear),
                Keyframe(time: motion.duration, cards: end, curve: motion.curve),
            ])
    }

    /// Every card back to rest after a release that decided nothing.
    func springBackTimeline(from frame: DragFrame) -> Timeline {
        timeline(.springBack, from: views(frame.poses), to: restingViews(), preset.springBack)
    }

    /// A bottom button's keyframes (the preset's steps for the top card, the
    /// cards below advancing in the last step) and where the card ends.
    func buttonTimeline(_ decision: Decision) -> (Timeline, exit: CardPose) {
        let steps = preset.buttonSteps(decision)
        let rest = restingViews()
        let keyframes = steps.enumerated().map { index, step in
            var cards = index == steps.count - 1 ? advancedViews(top: step.pose) : rest
            cards[0].pose = step.pose
            return Keyframe(time: step.time, cards: cards, curve: step.curve)
        }
        let line = Timeline(kind: .button(decision), duration: steps.last?.time ?? 0, keyframes: keyframes)
        return (line, steps.last?.pose ?? rest[0].pose)
    }

    /// The `fresh` slots fade in over 0.2 s where they rest.
    func fadeInTimeline(_ fresh: Set<Int>) -> Timeline {
        let end = restingViews()
        let start = end.map { card in
            var card = card
            if fresh.contains(card.slot) { card.pose.alpha = 0 }
            return card
        }
        return timeline(.fadeIn, from: start, to: end, Motion(duration: 0.2, curve: .easeInOut))
    }
}
