import Testing

@testable import SwipeCore

/// A card decided elsewhere leaves without a decision: its slot goes to the
/// back and is refilled, the cards below move up one state (the README's
/// recycling, minus the record), and undo keeps its history.
@Suite struct DeckWithdrawTests {
    /// Marks `id` decided in the feed, as another session's record would, then withdraws it.
    func withdraw(_ id: String, from controller: inout DeckController<InMemoryFeed>) throws -> DeckOutcome {
        controller.feed.decidedElsewhere(id)
        return try controller.send(.withdraw(id))
    }

    @Test func theTopCardLeavesItsSlotGoesToTheBackAndIsRefilled() throws {
        var controller = try deck(6)
        #expect(controller.snapshot.slots == [0, 1, 2, 3])
        let outcome = try withdraw("p0", from: &controller)
        #expect(outcome.decisions.isEmpty && outcome.undone.isEmpty)
        #expect(outcome.actions.first == .load(slot: 0))
        #expect(outcome.timelineNames == ["fade-in"])
        #expect(outcome.snapshot.ids == ["p1", "p2", "p3", "p4"])
        #expect(outcome.snapshot.slots == [1, 2, 3, 0])
        // p1 is at rest on top (W/2, restY); the refilled slot rests as `other`, visible.
        expectPose(outcome.snapshot.cards[0].pose, x: 187.5, y: 273.5)
        expectPose(outcome.snapshot.cards[3].pose, x: 187.5, y: 311.5, scale: 0.88)
        #expect(controller.deck.undoable.isEmpty)
    }

    @Test func aCardBelowTheTopLeavesTheSameWay() throws {
        var controller = try deck(6)
        let outcome = try withdraw("p2", from: &controller)
        #expect(outcome.actions.first == .load(slot: 2))
        #expect(outcome.snapshot.ids == ["p0", "p1", "p3", "p4"])
        #expect(outcome.snapshot.slots == [0, 1, 3, 2])
    }

    @Test func aDragOfTheTopCardIsDroppedAndItsDetailPageClosed() throws {
        var controller = try deck(6)
        try controller.send(.drag(dx: 50, dy: 0))
        #expect(try withdraw("p0", from: &controller).snapshot.dragging == nil)
        try controller.send(.open)
        #expect(controller.snapshot.mode == .detail(people(2)[1]))
        let closed = try withdraw("p1", from: &controller)
        #expect(closed.actions.first == .closeDetail)
        #expect(closed.snapshot.mode == .deck)
        #expect(closed.snapshot.ids == ["p2", "p3", "p4", "p5"])
    }

    @Test func aDragOfAnotherCardGoesOn() throws {
        var controller = try deck(6)
        try controller.send(.drag(dx: 50, dy: 0))
        #expect(try withdraw("p1", from: &controller).snapshot.dragging == Point(x: 50, y: 0))
    }

    /// The deck is busy refilling slot 2 (a load, then a fade-in) while the
    /// detail page of p0 stays open; a `back` sent meanwhile waits for it.
    @Test func theDetailPageOfTheTopCardStaysOpenWhileACardBelowLeaves() throws {
        var controller = try deck(6, settles: false)
        try controller.send(.animationFinished)  // the first fade-in
        try controller.send(.open)
        controller.feed.decidedElsewhere("p2")
        let busy = try controller.send(.withdraw("p2"))
        #expect(busy.timelineNames == ["fade-in"])
        #expect(busy.snapshot.mode == .detail(people(1)[0]))
        #expect(busy.snapshot.isAnimating)
        #expect(try controller.send(.close).actions == [.queued(.close)])
        let settled = try controller.send(.animationFinished)
        #expect(settled.actions == [.closeDetail])
        #expect(settled.snapshot.mode == .deck)
        #expect(settled.snapshot.ids == ["p0", "p1", "p3", "p4"])
    }

    /// like p0: slot 0 to the back, refilled with p4 (slots 1 2 3 0). p1 is
    /// withdrawn: slot 1 to the back, refilled with p5 (slots 2 3 0 1).
    /// Undo puts p0 back into slot 0 on top; p4, never decided, leaves.
    @Test func undoStillTakesBackTheDecksOwnDecision() throws {
        var controller = try deck(8)
        let liked = try controller.send(.button(.like))
        _ = try withdraw("p1", from: &controller)
        #expect(controller.snapshot.ids == ["p2", "p3", "p4", "p5"])
        #expect(controller.snapshot.slots == [2, 3, 0, 1])
        let undone = try controller.send(.undo)
        #expect(undone.undone == liked.decisions)
        #expect(undone.snapshot.ids == ["p0", "p2", "p3", "p5"])
        #expect(undone.snapshot.slots == [0, 2, 3, 1])
        #expect(throws: DeckRefusal.nothingToUndo) { try controller.send(.undo) }
        // p1 never comes back: it was decided elsewhere.
        let rest = try (0..<7).flatMap { _ in try controller.send(.button(.hate)).decisions.map(\.profile.id) }
        #expect(rest == ["p0", "p2", "p3", "p5", "p4", "p6", "p7"])
        #expect(controller.snapshot.mode == .empty)
    }

    @Test func anIdNotInTheDeckChangesNothing() throws {
        var controller = try deck(6)
        let before = controller.snapshot
        let outcome = try controller.send(.withdraw("p5"))
        #expect(outcome.actions.isEmpty)
        #expect(outcome.snapshot == before)
    }

    @Test func theLastCardsLeaveAndTheDeckBecomesEmpty() throws {
        var controller = try deck(2)
        #expect(controller.snapshot.ids == ["p0", "p1", nil, nil])
        #expect(try withdraw("p0", from: &controller).snapshot.ids == ["p1", nil, nil, nil])
        let last = try withdraw("p1", from: &controller)
        #expect(last.actions.contains(.becameEmpty))
        #expect(last.snapshot.mode == .empty)
    }

    @Test func whileAnAnimationRunsItWaitsInTheQueue() throws {
        var controller = try deck(6, settles: false)
        try controller.send(.animationFinished)  // the first fade-in
        try controller.send(.button(.like))  // p0 flies out; the animation is not finished
        controller.feed.decidedElsewhere("p2")
        let queued = try controller.send(.withdraw("p2"))
        #expect(queued.actions == [.queued(.withdraw("p2"))])
        #expect(controller.deck.queuedEvents == [.withdraw("p2")])
        // The fly-out ends (slot 0 refilled with p4, fading in), then the withdrawal
        // runs: slot 2 goes to the back and is refilled with p5.
        try controller.send(.animationFinished)
        try controller.send(.animationFinished)
        #expect(controller.deck.queuedEvents.isEmpty)
        #expect(controller.snapshot.ids == ["p1", "p3", "p4", "p5"])
        #expect(controller.snapshot.slots == [1, 3, 0, 2])
    }
}
