import Testing

@testable import SwipeCore

/// Input during animations, with a controller that does not settle on its own.
@Suite struct DeckQueueTests {
    @Test func buttonDuringAnimationIsQueuedAndAppliedOnce() throws {
        var controller = try deck(6, settles: false)
        // the initial fill fades in first: finish it.
        #expect(controller.snapshot.isAnimating)
        try controller.send(.animationFinished)
        let first = try controller.send(.button(.like))
        #expect(first.decisions.map(\.profile.id) == ["p0"])
        #expect(first.snapshot.isAnimating)
        let second = try controller.send(.button(.hate))
        #expect(second.actions == [.queued(.button(.hate))])
        #expect(second.decisions.isEmpty)
        // the fly-out ends: slot 0 is refilled, the fade-in starts; the hate still waits.
        let refill = try controller.send(.animationFinished)
        #expect(refill.timelineNames == ["fade-in"])
        #expect(refill.decisions.isEmpty)
        #expect(controller.deck.queuedEvents == [.button(.hate)])
        // the fade-in ends: the queued hate runs, about p1.
        let applied = try controller.send(.animationFinished)
        #expect(applied.decisions == [DeckDecision(profile: people(2)[1], decision: .hate, via: .button)])
        #expect(controller.deck.queuedEvents.isEmpty)
        try controller.send(.animationFinished)
        try controller.send(.animationFinished)
        #expect(controller.snapshot.ids == ["p2", "p3", "p4", "p5"])
        #expect(!controller.snapshot.isAnimating)
    }

    @Test func gestureDuringAnimationIsQueued() throws {
        var controller = try deck(6, settles: false)
        try controller.send(.animationFinished)
        try controller.send(.button(.like))
        #expect(try controller.send(.drag(dx: 150, dy: 0)).actions == [.queued(.drag(dx: 150, dy: 0))])
        #expect(try controller.send(.release(vx: 0, vy: 0)).actions == [.queued(.release(vx: 0, vy: 0))])
        #expect(throws: DeckRefusal.physicsWhileBusy) { try controller.send(.setPhysics(.stack)) }
        try controller.send(.animationFinished)
        let replay = try controller.send(.animationFinished)
        #expect(replay.decisions.map(\.profile.id) == ["p1"])
        #expect(replay.decisions.map(\.via) == [.drag])
    }

    @Test func queuedInputThatBecameImpossibleIsReportedNotDropped() throws {
        var controller = try deck(1, settles: false)
        try controller.send(.animationFinished)
        try controller.send(.button(.like))
        try controller.send(.button(.like))
        let end = try controller.send(.animationFinished)
        #expect(end.actions.contains(.becameEmpty))
        #expect(end.actions.last == .refused(.button(.like), .noCard))
        #expect(end.decisions.isEmpty)
    }

    @Test func fullQueueIsRefused() throws {
        var controller = try deck(4, settles: false)
        for _ in 0..<Deck.queueLimit { try controller.send(.open) }
        #expect(throws: DeckRefusal.queueFull) { try controller.send(.undo) }
    }

    @Test func settlingControllerNeverLeavesTheDeckBusy() throws {
        var controller = try deck(6)
        #expect(!controller.snapshot.isAnimating)
        try controller.send(.button(.like))
        #expect(!controller.snapshot.isAnimating)
        #expect(controller.deck.queuedEvents.isEmpty)
    }
}

@Suite struct DeckRefusalTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e6 + 1, -2e6])
    func invalidNumbersAreRefused(value: Double) throws {
        var controller = try deck(5)
        #expect(throws: DeckRefusal.self) { try controller.send(.drag(dx: value, dy: 0)) }
        #expect(throws: DeckRefusal.self) { try controller.send(.drag(dx: 0, dy: value)) }
        #expect(controller.snapshot.dragging == nil)
        try controller.send(.drag(dx: 20, dy: 0))
        do {
            try controller.send(.release(vx: value, vy: 0))
            Issue.record("release accepted \(value)")
        } catch let refusal as DeckRefusal {
            #expect(refusal.reason == .invalidNumber)
            #expect(refusal.description.contains("vx"))
        }
        // the gesture survives the refused release.
        #expect(controller.snapshot.dragging == Point(x: 20, y: 0))
    }

    @Test func largestAcceptedNumbersGiveFinitePoses() throws {
        for physics in PhysicsKind.allCases {
            var controller = try deck(5, physics: physics)
            let snapshot = try controller.send(.drag(dx: 1e6, dy: -1e6)).snapshot
            #expect(snapshot.cards.allSatisfy { $0.pose.isFinite })
            let released = try controller.send(.release(vx: 1e6, vy: 1e6))
            #expect(released.decisions.count == 1)
        }
    }

    @Test func releaseWithoutDragAndCancel() throws {
        var controller = try deck(5)
        #expect(throws: DeckRefusal.noGesture) { try controller.send(.release(vx: 0, vy: 0)) }
        #expect(try controller.send(.cancel).actions.isEmpty)
        try controller.send(.drag(dx: 80, dy: 0))
        let cancelled = try controller.send(.cancel)
        #expect(cancelled.timelineNames == ["spring-back"])
        #expect(cancelled.decisions.isEmpty)
        #expect(cancelled.snapshot.dragging == nil)
        #expect(throws: DeckRefusal.gestureInProgress) {
            try controller.send(.drag(dx: 1, dy: 0))
            try controller.send(.setPhysics(.scrub))
        }
    }

    @Test func setPhysicsChangesTheLayout() throws {
        var controller = try deck(5)
        let snapshot = try controller.send(.setPhysics(.stack)).snapshot
        #expect(snapshot.physics == .stack)
        expectPose(snapshot.cards[1].pose, x: 187.5, y: 283.5, scale: 280.0 / 300)
    }
}
