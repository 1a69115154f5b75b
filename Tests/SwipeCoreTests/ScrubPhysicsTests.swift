import Testing

@testable import SwipeCore

/// scrub: progress = clamp(dx/275, 0, 1); x = 187.5 + 275·progress; alpha = 1 − progress;
/// a release with progress > 0 finishes the 3 s animation: a like; at progress 0 nothing moves on.
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

    @Test(arguments: [(137.5, 1.5), (0.275, 2.997), (275, 0), (550, 0)])
    func releaseWithProgressLikes(dx: Double, remaining: Double) throws {
        var controller = try deck(4, physics: .scrub)
        let outcome = try controller.swipe(dx)
        #expect(outcome.decisions.map(\.decision) == [.like])
        guard case let .animate(line) = outcome.actions[1] else { Issue.record("no timeline"); return }
        // the remaining 3·(1 − progress) s, easeOut, to (462.5, 273.5) at alpha 0.
        expectClose(line.duration, remaining)
        #expect(line.keyframes[1].curve == .easeOut)
        expectPose(line.keyframes[1].cards[0].pose, x: 462.5, y: 273.5, alpha: 0)
    }

    /// A release at progress 0 (a drag left, none, straight up or down) has no
    /// animation to continue: the card rests, nothing is decided, whatever the
    /// flick (README, "The deck model": the scrubbed animation only runs forward).
    @Test(arguments: [(-50.0, 0.0, 0.0), (0, 0, 0), (0, -300, 0), (0, 300, 0), (-50, 0, -1500), (-500, 0, -1e6)])
    func releaseAtProgressZeroRests(dx: Double, dy: Double, vx: Double) throws {
        var controller = try deck(4, physics: .scrub)
        let outcome = try controller.swipe(dx, dy, vx: vx)
        #expect(outcome.decisions.isEmpty)
        #expect(!outcome.actions.contains { if case .record = $0 { true } else { false } })
        // back to rest over the preset's 0.2 s; p0 stays on top.
        #expect(outcome.timelineNames == ["spring-back"])
        guard case let .animate(line) = outcome.actions.first else { Issue.record("no timeline"); return }
        expectClose(line.duration, 0.2)
        #expect(outcome.snapshot.ids == ["p0", "p1", "p2", "p3"])
        expectPose(outcome.snapshot.cards[0].pose, x: 187.5, y: 273.5)
        #expect(outcome.snapshot.dragging == nil)
    }
}
