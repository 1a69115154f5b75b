import Testing

@testable import SwipeCore

@Suite struct DeckUndoTests {
    @Test func nothingToUndo() throws {
        var controller = try deck(5)
        #expect(throws: DeckRefusal.nothingToUndo) { try controller.send(.undo) }
    }

    @Test func undoBringsTheCardBackInItsSlotAndTheDisplacedCardReappears() throws {
        var controller = try deck(6)
        let liked = try controller.send(.button(.like))
        #expect(controller.snapshot.ids == ["p1", "p2", "p3", "p4"])
        let undone = try controller.send(.undo)
        #expect(undone.undone == liked.decisions)
        #expect(undone.actions.first == .unrecord(liked.decisions[0]))
        #expect(undone.timelineNames == ["undo"])
        // p0 is back on top in slot 0; p4, never decided, left to make room.
        #expect(undone.snapshot.ids == ["p0", "p1", "p2", "p3"])
        #expect(undone.snapshot.slots == [0, 1, 2, 3])
        guard case let .animate(line) = undone.actions[1] else { Issue.record("no timeline"); return }
        // it comes back from where it flew (2W, restY) to the rest, the others move down one state.
        expectPose(line.keyframes[0].cards[0].pose, x: 750, y: 273.5, degrees: 67.5)
        expectPose(line.keyframes[0].cards[1].pose, x: 187.5, y: 273.5)
        expectPose(line.keyframes[1].cards[0].pose, x: 187.5, y: 273.5)
        expectPose(line.keyframes[1].cards[1].pose, x: 187.5, y: 292.5, scale: 0.94)
        // deciding p0 again refills slot 0 with p4: the displaced card reappears.
        let again = try controller.send(.button(.hate))
        #expect(again.decisions.map(\.profile.id) == ["p0"])
        #expect(again.snapshot.ids == ["p1", "p2", "p3", "p4"])
        let rest = try (0..<5).flatMap { _ in try controller.send(.button(.like)).decisions.map(\.profile.id) }
        #expect(rest == ["p1", "p2", "p3", "p4", "p5"])
        #expect(controller.snapshot.mode == .empty)
    }

    @Test func repeatedUndoWalksBack() throws {
        var controller = try deck(8)
        try controller.send(.button(.like))
        _ = try controller.swipe(-150)
        try controller.send(.button(.superlike))
        #expect(controller.snapshot.ids == ["p3", "p4", "p5", "p6"])
        #expect(controller.deck.undoable.map(\.decision) == [.like, .hate, .superlike])
        #expect(try controller.send(.undo).undone.map(\.profile.id) == ["p2"])
        #expect(controller.snapshot.cards[0].slot == 2)
        #expect(try controller.send(.undo).undone.map(\.profile.id) == ["p1"])
        #expect(controller.snapshot.cards[0].slot == 1)
        let first = try controller.send(.undo)
        #expect(first.undone == [DeckDecision(profile: people(1)[0], decision: .like, via: .button)])
        #expect(controller.snapshot.ids == ["p0", "p1", "p2", "p3"])
        #expect(controller.snapshot.slots == [0, 1, 2, 3])
        #expect(throws: DeckRefusal.nothingToUndo) { try controller.send(.undo) }
        #expect(controller.feed.decided.isEmpty)
    }

    @Test func undoFromTheEmptyState() throws {
        var controller = try deck(1)
        try controller.send(.button(.like))
        #expect(controller.snapshot.mode == .empty)
        let back = try controller.send(.undo)
        #expect(back.snapshot.mode == .deck)
        #expect(back.snapshot.ids == ["p0", nil, nil, nil])
    }

    @Test func undoIsRefusedMidGesture() throws {
        var controller = try deck(5)
        try controller.send(.button(.like))
        try controller.send(.drag(dx: 10, dy: 0))
        #expect(throws: DeckRefusal.gestureInProgress) { try controller.send(.undo) }
        #expect(throws: DeckRefusal.gestureInProgress) { try controller.send(.button(.like)) }
    }
}

/// `undo` past the deck's own decisions (Documentation/REPL.md): a decision
/// made before this deck existed comes back on top through the back slot.
@Suite struct DeckUndoEarlierTests {
    let earlier = DeckDecision(profile: Profile(id: "old", name: "Old Flame", age: 40), decision: .hate, via: .button)

    @Test func anEarlierDecisionComesBackOnTopThroughTheBackSlot() throws {
        var controller = try deck(6)
        controller.rememberEarlier(earlier)
        #expect(controller.deck.undoable == [earlier])
        let undone = try controller.send(.undo)
        #expect(undone.actions.first == .unrecord(earlier))
        #expect(undone.undone == [earlier])
        #expect(undone.timelineNames == ["undo"])
        // The back slot (3) held p3, never decided: it leaves, the others move down.
        #expect(undone.snapshot.ids == ["old", "p0", "p1", "p2"])
        #expect(undone.snapshot.slots == [3, 0, 1, 2])
        guard case let .animate(line) = undone.actions[1] else { Issue.record("no timeline"); return }
        // A pass comes back in from the left, off the 375-point screen.
        #expect(line.keyframes[0].cards[0].pose.center.x < 0)
        #expect(throws: DeckRefusal.nothingToUndo) { try controller.send(.undo) }
    }

    @Test func theDecksOwnDecisionsAreTakenBackFirst() throws {
        var controller = try deck(6)
        controller.rememberEarlier(earlier)
        try controller.send(.button(.like))
        #expect(controller.deck.undoable.map(\.profile.id) == ["old", "p0"])
        #expect(try controller.send(.undo).undone.map(\.profile.id) == ["p0"])
        #expect(try controller.send(.undo).undone.map(\.profile.id) == ["old"])
        #expect(controller.snapshot.ids == ["old", "p0", "p1", "p2"])
    }

    @Test func anEarlierDecisionAboutACardInTheDeckIsIgnored() throws {
        var controller = try deck(6)
        controller.rememberEarlier(DeckDecision(profile: people(1)[0], decision: .like, via: .drag))
        #expect(controller.deck.undoable.isEmpty)
        #expect(throws: DeckRefusal.nothingToUndo) { try controller.send(.undo) }
    }
}
