import Testing

@testable import SwipeCore

/// tantan: D = 100, S = 0.06, m = 400·0.06 − 5 = 19, rest (187.5, 273.5), W/2 = 187.5.
/// Rotation (1 − centreX/187.5)·22.5° in degrees.
@Suite struct TanTanPhysicsTests {
    @Test func restingLayout() throws {
        let cards = try deck(4).snapshot.cards
        // k = 0, 1, 2, 2: scale 1 − 0.06k, y 273.5 + 19k.
        expectPose(cards[0].pose, x: 187.5, y: 273.5)
        expectPose(cards[1].pose, x: 187.5, y: 292.5, scale: 0.94)
        expectPose(cards[2].pose, x: 187.5, y: 311.5, scale: 0.88)
        expectPose(cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
        #expect(cards.map(\.state) == [.first, .second, .third, .other])
    }

    /// The README's worked example: drag 60 −10.
    @Test func workedExample() throws {
        var controller = try deck(4)
        let snapshot = try controller.send(.drag(dx: 60, dy: -10)).snapshot
        let cards = snapshot.cards
        // percentX 0.6, percentY −0.1, main max(0.6, 0.1) − 0.15 = 0.45.
        expectClose(snapshot.indicators.progress, 0.45)
        // top: (187.5 + 60, 273.5 − 10); rotation (1 − 247.5/187.5)·22.5° = −0.32·22.5° = −7.2°.
        expectPose(cards[0].pose, x: 247.5, y: 263.5, degrees: -7.2)
        // second: 0.94 + 0.06·0.45 = 0.967; 292.5 − 19·0.45 = 283.95.
        expectPose(cards[1].pose, x: 187.5, y: 283.95, scale: 0.967)
        // third: 0.88 + 0.027 = 0.907; 311.5 − 8.55 = 302.95.
        expectPose(cards[2].pose, x: 187.5, y: 302.95, scale: 0.907)
        // other does not move.
        expectPose(cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
        // like = 0.6, hate = 0; borders 5·0.4 = 2 and 5·1 = 5.
        expectClose(snapshot.indicators.like, 0.6)
        expectClose(snapshot.indicators.hate, 0)
        expectClose(snapshot.indicators.likeBorder, 2)
        expectClose(snapshot.indicators.hateBorder, 5)
        #expect(snapshot.dragging == Point(x: 60, y: -10))
    }

    @Test func dragAtTheDropDistance() throws {
        var controller = try deck(4)
        let snapshot = try controller.send(.drag(dx: 100, dy: 0)).snapshot
        // centreX 287.5: (1 − 287.5/187.5)·22.5° = −0.5333…·22.5° = −12°. main 1 − 0.15 = 0.85.
        expectPose(snapshot.cards[0].pose, x: 287.5, y: 273.5, degrees: -12)
        // second 0.94 + 0.051 = 0.991, y 292.5 − 16.15 = 276.35.
        expectPose(snapshot.cards[1].pose, x: 187.5, y: 276.35, scale: 0.991)
        expectClose(snapshot.indicators.like, 1)
        expectClose(snapshot.indicators.likeBorder, 0)
    }

    @Test func verticalDragSaturatesMain() throws {
        var controller = try deck(4)
        let snapshot = try controller.send(.drag(dx: -40, dy: 200)).snapshot
        // percentY 2 → main min(2 − 0.15, 1) = 1; rotation (1 − 147.5/187.5)·22.5° = (40/187.5)·22.5° = 4.8°.
        expectPose(snapshot.cards[0].pose, x: 147.5, y: 473.5, degrees: 4.8)
        // second at the first's rest, third at the second's; other stays.
        expectPose(snapshot.cards[1].pose, x: 187.5, y: 273.5)
        expectPose(snapshot.cards[2].pose, x: 187.5, y: 292.5, scale: 0.94)
        expectPose(snapshot.cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
        // hate = 0.4, hate border 5·0.6 = 3.
        expectClose(snapshot.indicators.hate, 0.4)
        expectClose(snapshot.indicators.hateBorder, 3)
        expectClose(snapshot.indicators.progress, 1)
    }

    @Test func smallDragBelowTheDeadZone() throws {
        var controller = try deck(4)
        let cards = try controller.send(.drag(dx: 10, dy: 0)).snapshot.cards
        // percentX 0.1 < 0.15 → main 0; rotation −(10/187.5)·22.5° = −1.2°.
        expectPose(cards[0].pose, x: 197.5, y: 273.5, degrees: -1.2)
        expectPose(cards[1].pose, x: 187.5, y: 292.5, scale: 0.94)
    }

    @Test(arguments: [100.0, -100.0, 0, 50])
    func releaseAtOrUnderTheDistanceSpringsBack(dx: Double) throws {
        var controller = try deck(4)
        let outcome = try controller.swipe(dx)
        #expect(outcome.decisions.isEmpty)
        #expect(outcome.timelineNames == ["spring-back"])
        guard case let .animate(line) = outcome.actions.first else { Issue.record("no timeline"); return }
        #expect(line.duration == 0.5)
        #expect(line.keyframes.last?.curve == .spring(damping: 0.5, duration: 0.5))
        expectPose(
            line.keyframes[0].cards[0].pose, x: 187.5 + dx, y: 273.5,
            degrees: -(dx / 187.5) * 22.5)
        expectPose(outcome.snapshot.cards[0].pose, x: 187.5, y: 273.5)
        #expect(outcome.snapshot.ids == ["p0", "p1", "p2", "p3"])
    }

    @Test func justPastTheDistanceFliesOut() throws {
        var controller = try deck(5)
        let liked = try controller.swipe(100.0001)
        #expect(liked.decisions == [DeckDecision(profile: people(1)[0], decision: .like, via: .drag)])
        guard case let .animate(line) = liked.actions[1] else { Issue.record("no fly-out"); return }
        #expect(line.name == "fly-out")
        #expect(line.duration == 0.3)
        // to (2W, restY) = (750, 273.5), rotation 0, alpha 0; second advances to the first's rest.
        expectPose(line.keyframes[1].cards[0].pose, x: 750, y: 273.5, alpha: 0)
        expectPose(line.keyframes[1].cards[1].pose, x: 187.5, y: 273.5)
        expectPose(line.keyframes[1].cards[2].pose, x: 187.5, y: 292.5, scale: 0.94)

        let hated = try controller.swipe(-100.0001)
        #expect(hated.decisions.map(\.decision) == [.hate])
        #expect(hated.decisions.map(\.profile.id) == ["p1"])
        guard case let .animate(back) = hated.actions[1] else { Issue.record("no fly-out"); return }
        // to (−W, restY) = (−375, 273.5).
        expectPose(back.keyframes[1].cards[0].pose, x: -375, y: 273.5, alpha: 0)
    }

    @Test func verticalDragsNeverDecide() throws {
        var controller = try deck(4)
        #expect(try controller.swipe(0, -500).decisions.isEmpty)
        #expect(try controller.swipe(0, 500).decisions.isEmpty)
    }

    @Test func velocityFlick() throws {
        var controller = try deck(8)
        // 1100 pt/s along dx leaves under the distance; 1099.999 does not; against dx does not.
        #expect(try controller.swipe(50, vx: 1099.999).decisions.isEmpty)
        #expect(try controller.swipe(50, vx: -1100).decisions.isEmpty)
        #expect(try controller.swipe(0, vx: 5000).decisions.isEmpty)
        #expect(try controller.swipe(50, vx: 1100).decisions.map(\.decision) == [.like])
        #expect(try controller.swipe(-1, vx: -1100).decisions.map(\.decision) == [.hate])
    }

    @Test func likeButtonKeyframes() throws {
        var controller = try deck(5)
        let outcome = try controller.send(.button(.like))
        guard case let .animate(line) = outcome.actions[1] else { Issue.record("no timeline"); return }
        #expect(line.name == "button-like")
        #expect(line.duration == 0.8)
        #expect(line.keyframes.map(\.time) == [0, 0.2, 0.4, 0.8])
        let top = line.keyframes.map { $0.cards[0].pose }
        expectPose(top[0], x: 187.5, y: 273.5)
        // recoil: −10 pt, −5°.
        expectPose(top[1], x: 177.5, y: 273.5, degrees: -5)
        expectPose(top[2], x: 187.5, y: 273.5)
        // fly to x = 2W = 750, rotation (750/187.5 − 1)·22.5° = 3·22.5° = 67.5°.
        expectPose(top[3], x: 750, y: 273.5, degrees: 67.5)
        // the cards below keep their rest until the fly, then advance as at main = 1.
        expectPose(line.keyframes[2].cards[1].pose, x: 187.5, y: 292.5, scale: 0.94)
        expectPose(line.keyframes[3].cards[1].pose, x: 187.5, y: 273.5)
        expectPose(line.keyframes[3].cards[2].pose, x: 187.5, y: 292.5, scale: 0.94)
        expectPose(line.keyframes[3].cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
        #expect(outcome.decisions == [DeckDecision(profile: people(1)[0], decision: .like, via: .button)])
    }

    @Test func hateAndSuperlikeButtonKeyframes() throws {
        var controller = try deck(6)
        let hate = try controller.send(.button(.hate))
        guard case let .animate(line) = hate.actions[1] else { Issue.record("no timeline"); return }
        let top = line.keyframes.map { $0.cards[0].pose }
        // recoil +10 pt, +5°; fly to −W = −375, rotation (−375/187.5 − 1)·22.5° = −3·22.5° = −67.5°.
        expectPose(top[1], x: 197.5, y: 273.5, degrees: 5)
        expectPose(top[3], x: -375, y: 273.5, degrees: -67.5)

        let superlike = try controller.send(.button(.superlike))
        guard case let .animate(up) = superlike.actions[1] else { Issue.record("no timeline"); return }
        let lifted = up.keyframes.map { $0.cards[0].pose }
        // recoil 10 pt down, then straight up to y = −400 (one card height above the screen).
        expectPose(lifted[1], x: 187.5, y: 283.5)
        expectPose(lifted[3], x: 187.5, y: -400)
        #expect(superlike.decisions.map(\.decision) == [.superlike])
        #expect(superlike.decisions.map(\.profile.id) == ["p1"])
    }

    @Test func refilledCardFadesInAtTheBack() throws {
        var controller = try deck(5)
        let outcome = try controller.send(.button(.like))
        #expect(outcome.timelineNames == ["button-like", "fade-in"])
        guard case let .animate(fade) = outcome.actions.last else { Issue.record("no fade-in"); return }
        #expect(fade.duration == 0.2)
        // slot 0 now `other` with p4: at the third's rest, alpha 0 → 1.
        let start = fade.keyframes[0].cards[3]
        #expect(start.slot == 0 && start.profile?.id == "p4" && start.state == .other)
        expectPose(start.pose, x: 187.5, y: 311.5, scale: 0.88, alpha: 0)
        expectPose(fade.keyframes[1].cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
    }
}
