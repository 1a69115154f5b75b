import Testing
@testable import SwipeCore

/// scrub: progress = clamp(dx/275, 0, 1); x = 187.5 + 275·progress; alpha = 1 − progress;
/// release always finishes the 3 s animation: a like.
@Suite struct ScrubPhysicsTests {
    @Test func scrubbing() throws {
        var controller = try deck(4, physics: .scrub)
        // dx 137.5: progress 0.5 → x 325, alpha 0.5.
        var snapshot = try controller.send(.drag(dx: 137.5, dy: 80)).snapshot
        expectPose(snapshot.cards[0].pose, x: 325, y: 273.5, alpha: 0.5)
        expectClose(snapshot.indicators.progress, 0.5)
        expectClose(snapshot.indicators.like, 0.5)
        // dx −50: progress 0 (clamped) → at rest.
        snapshot = try controller.send(.drag(dx: -50, dy: 0)).snapshot
        expectPose(snapshot.cards[0].pose, x: 187.5, y: 273.5)
        // dx 550: progress 1 → x 462.5, alpha 0.
        snapshot = try controller.send(.drag(dx: 550, dy: 0)).snapshot
        expectPose(snapshot.cards[0].pose, x: 462.5, y: 273.5, alpha: 0)
    }

    @Test(arguments: [(137.5, 1.5), (-50, 3), (0, 3), (275, 0)])
    func releaseAlwaysLikes(dx: Double, remaining: Double) throws {
        var controller = try deck(4, physics: .scrub)
        let outcome = try controller.swipe(dx)
        #expect(outcome.decisions.map(\.decision) == [.like])
        guard case let .animate(line) = outcome.actions[1] else { Issue.record("no timeline"); return }
        // the remaining 3·(1 − progress) s, easeOut, to (462.5, 273.5) at alpha 0.
        expectClose(line.duration, remaining)
        #expect(line.keyframes[1].curve == .easeOut)
        expectPose(line.keyframes[1].cards[0].pose, x: 462.5, y: 273.5, alpha: 0)
    }
}
