import Testing

@testable import SwipeCore

/// draggable: strength = clamp(dx/320, −1, 1), rotation = 22.5°·strength,
/// scale = max(1 − |strength|/4, 0.93); removal past |dx| > 175 or |dy| > 400.
@Suite struct DraggablePhysicsTests {
    @Test func poses() throws {
        var controller = try deck(4, physics: .draggable)
        // dx 64: strength 0.2 → 4.5°, scale 1 − 0.05 = 0.95.
        var cards = try controller.send(.drag(dx: 64, dy: 10)).snapshot.cards
        expectPose(cards[0].pose, x: 251.5, y: 283.5, scale: 0.95, degrees: 4.5)
        // every card below rests exactly under the top one (the seed stacks equal frames).
        for card in cards.dropFirst() { expectPose(card.pose, x: 187.5, y: 273.5) }
        // dx 160: strength 0.5 → 11.25°, 1 − 0.125 = 0.875 floored at 0.93.
        cards = try controller.send(.drag(dx: 160, dy: 0)).snapshot.cards
        expectPose(cards[0].pose, x: 347.5, y: 273.5, scale: 0.93, degrees: 11.25)
        // dx −640: strength clamped to −1 → −22.5°, scale floored.
        cards = try controller.send(.drag(dx: -640, dy: 0)).snapshot.cards
        expectPose(cards[0].pose, x: -452.5, y: 273.5, scale: 0.93, degrees: -22.5)
        // dx 32: strength 0.1 → 2.25°, 1 − 0.025 = 0.975 (above the floor).
        cards = try controller.send(.drag(dx: 32, dy: 0)).snapshot.cards
        expectPose(cards[0].pose, x: 219.5, y: 273.5, scale: 0.975, degrees: 2.25)
    }

    @Test func horizontalThresholds() throws {
        var controller = try deck(8, physics: .draggable)
        #expect(try controller.swipe(175).decisions.isEmpty)
        #expect(try controller.swipe(-175).decisions.isEmpty)
        let like = try controller.swipe(175.0001)
        #expect(like.decisions.map(\.decision) == [.like])
        guard case let .animate(line) = like.actions[1] else { Issue.record("no fly-out"); return }
        // fades out towards x = W = 375.
        expectPose(
            line.keyframes[1].cards[0].pose, x: 375, y: 273.5, scale: 0.93,
            degrees: 22.5 * 175.0001 / 320, alpha: 0)
        #expect(try controller.swipe(-175.0001).decisions.map(\.decision) == [.hate])
    }

    @Test func springBackIsTheSeedsReset() throws {
        var controller = try deck(4, physics: .draggable)
        let outcome = try controller.swipe(100)
        guard case let .animate(line) = outcome.actions.first else { Issue.record("no reset"); return }
        #expect(line.name == "spring-back" && line.duration == 0.2)
    }

    @Test func verticalRemovals() throws {
        var controller = try deck(8, physics: .draggable)
        #expect(try controller.swipe(0, -400).decisions.isEmpty)
        #expect(try controller.swipe(0, 400).decisions.isEmpty)
        let up = try controller.swipe(10, -400.0001)
        #expect(up.decisions.map(\.decision) == [.superlike])
        guard case let .animate(line) = up.actions[1] else { Issue.record("no fly-out"); return }
        // up and out: y = −400.
        expectClose(line.keyframes[1].cards[0].pose.center.y, -400)
        let down = try controller.swipe(-10, 400.0001)
        #expect(down.decisions.map(\.decision) == [.hate])
        guard case let .animate(drop) = down.actions[1] else { Issue.record("no fly-out"); return }
        // down and out: y = 667 + 400 = 1067.
        expectClose(drop.keyframes[1].cards[0].pose.center.y, 1067)
        // a horizontal removal wins over a vertical one.
        #expect(try controller.swipe(176, -500).decisions.map(\.decision) == [.like])
        #expect(controller.snapshot.ids == ["p3", "p4", "p5", "p6"])
    }

    @Test func buttonsFlyToTheScreenEdgeWithoutRotation() throws {
        var controller = try deck(8, physics: .draggable)
        let like = try controller.send(.button(.like))
        guard case let .animate(line) = like.actions[1] else { Issue.record("no timeline"); return }
        #expect(line.duration == 0.8 && line.keyframes.map(\.time) == [0, 0.8])
        expectPose(line.keyframes[1].cards[0].pose, x: 375, y: 273.5)
        let hate = try controller.send(.button(.hate))
        guard case let .animate(back) = hate.actions[1] else { Issue.record("no timeline"); return }
        expectPose(back.keyframes[1].cards[0].pose, x: -375, y: 273.5)
    }
}
