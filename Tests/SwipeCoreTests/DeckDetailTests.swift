import Testing

@testable import SwipeCore

@Suite struct DeckDetailTests {
    @Test func openAndBack() throws {
        var controller = try deck(5)
        let opened = try controller.send(.open)
        #expect(opened.actions == [.showDetail(people(1)[0])])
        #expect(opened.snapshot.mode == .detail(people(1)[0]))
        #expect(throws: DeckRefusal.inDetail) { try controller.send(.open) }
        let closed = try controller.send(.close)
        #expect(closed.actions == [.closeDetail])
        #expect(closed.snapshot.mode == .deck)
        #expect(throws: DeckRefusal.notInDetail) { try controller.send(.close) }
    }

    @Test func gesturesUndoAndReloadAreRefusedInDetail() throws {
        var controller = try deck(5)
        try controller.send(.button(.like))
        try controller.send(.open)
        for event in [DeckEvent.drag(dx: 10, dy: 0), .release(vx: 0, vy: 0), .undo, .reload] {
            #expect(throws: DeckRefusal.inDetail) { try controller.send(event) }
        }
        #expect(controller.snapshot.mode == .detail(people(2)[1]))
    }

    @Test(arguments: Decision.allCases)
    func buttonInDetailClosesThenRunsTheButtonFlow(decision: Decision) throws {
        var controller = try deck(5)
        try controller.send(.open)
        let outcome = try controller.send(.button(decision))
        #expect(outcome.actions.first == .closeDetail)
        #expect(
            outcome.actions.dropFirst().first
                == .record(
                    DeckDecision(
                        profile: people(1)[0], decision: decision,
                        via: .detail)))
        #expect(outcome.timelineNames == ["button-\(decision.rawValue)", "fade-in"])
        #expect(outcome.decisions.count == 1)
        #expect(outcome.snapshot.mode == .deck)
        #expect(outcome.snapshot.ids == ["p1", "p2", "p3", "p4"])
    }
}
