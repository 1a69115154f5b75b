import PropertyBased
import Testing

@testable import SwipeCore

/// Invariants over random event sequences, every preset, 0–9 profiles.
@Suite struct DeckPropertyTests {
    /// Events chosen by index, with values around every preset's thresholds.
    static let events: [DeckEvent] = [
        .drag(dx: 60, dy: -10), .drag(dx: 100, dy: 0), .drag(dx: 100.0001, dy: 5), .drag(dx: -260, dy: 0),
        .drag(dx: 251, dy: 0), .drag(dx: 0, dy: -401), .drag(dx: 0, dy: 450), .drag(dx: 30, dy: 0),
        .drag(dx: -30, dy: 0), .release(vx: 0, vy: 0), .release(vx: 1100, vy: 0), .release(vx: -1100, vy: 0),
        .release(vx: 0, vy: 0), .cancel, .button(.like), .button(.hate), .button(.superlike), .open, .close,
        .undo, .undo, .reload, .setPhysics(.tantan), .setPhysics(.draggable), .setPhysics(.stack),
        .setPhysics(.scrub), .withdraw("p1"), .withdraw("p3"),
    ]

    static let script = Gen.int(in: 0..<events.count).array(of: 1...60)

    @Test func invariantsHold() async {
        await propertyCheck(input: Gen.int(in: 0...9), Self.script, Gen.int(in: 0...3).map { PhysicsKind.allCases[$0] })
        {
            count, script, physics in
            try Self.run(count: count, physics: physics, settles: true, script: script.map { Self.events[$0] })
        }
    }

    @Test func invariantsHoldWithQueuedInput() async {
        let script = Gen.int(in: 0...Self.events.count).array(of: 1...60)
        await propertyCheck(input: Gen.int(in: 0...9), script) { count, script in
            // index `events.count` stands for "the animation finished".
            let events = script.map { $0 == Self.events.count ? DeckEvent.animationFinished : Self.events[$0] }
            try Self.run(
                count: count, physics: .tantan, settles: false,
                script: events
                    + [DeckEvent](
                        repeating: .animationFinished, count: 3 * Deck.queueLimit + 8))
        }
    }

    static func run(count: Int, physics: PhysicsKind, settles: Bool, script: [DeckEvent]) throws {
        let all = Set(people(count).map(\.id))
        var controller = try DeckController(
            feed: InMemoryFeed(people(count)), physics: physics,
            settlesImmediately: settles)
        var decided: Set<String> = []
        var shown = Set(controller.snapshot.ids.compactMap { $0 })
        var displaced: Set<String> = []
        var queued = 0
        var refusedLater = 0
        /// Withdrawn ids: decided elsewhere, so the feed no longer offers them.
        var gone: Set<String> = []
        for event in script {
            let before = Set(controller.snapshot.ids.compactMap { $0 })
            if case let .withdraw(id) = event {
                controller.feed.decidedElsewhere(id)
                gone.insert(id)
            }
            let outcome: DeckOutcome
            do {
                outcome = try controller.send(event)
            } catch is DeckRefusal {
                if case let .withdraw(id) = event { gone.remove(id) }  // the queue was full: it stays
                continue
            }
            for action in outcome.actions {
                switch action {
                case let .record(made):
                    // exactly one decision per profile until it is undone
                    #expect(decided.insert(made.profile.id).inserted)
                case let .unrecord(made):
                    #expect(decided.remove(made.profile.id) != nil)
                case let .animate(line):
                    let drawable = line.keyframes.allSatisfy {
                        $0.cards.count == 4 && $0.cards.allSatisfy(\.pose.isFinite)
                    }
                    #expect(drawable)
                    #expect(line.keyframes.first?.time == 0 && line.keyframes.last?.time == line.duration)
                case .queued: queued += 1
                case .refused: refusedLater += 1
                default: break
                }
            }
            let removals = outcome.actions.filter {
                if case let .animate(line) = $0 {
                    line.name == "fly-out" || line.name.hasPrefix("button-")
                } else {
                    false
                }
            }
            #expect(removals.count == outcome.decisions.count)
            let snapshot = outcome.snapshot
            #expect(snapshot.cards.count == 4)
            #expect(Set(snapshot.slots) == [0, 1, 2, 3])
            #expect(snapshot.cards.map(\.state) == CardState.allCases)
            #expect(snapshot.cards.allSatisfy { $0.pose.isFinite })
            let ids = snapshot.ids.compactMap { $0 }
            #expect(Set(ids).count == ids.count)
            // a decided card stays only while it flies out
            if !snapshot.isAnimating { #expect(decided.isDisjoint(with: ids)) }
            // once the deck is idle a withdrawal has been applied (an undo may
            // bring back a card the deck itself decided)
            let back = Set(outcome.undone.map(\.profile.id))
            if !snapshot.isAnimating { #expect(gone.subtracting(back).isDisjoint(with: ids)) }
            // a profile comes back into the deck only through an undo: the undone card, or the
            // undecided card it displaced, which the feed offers again
            let entering = Set(ids).subtracting(before)
            if outcome.undone.isEmpty { #expect(entering.isDisjoint(with: shown.subtracting(displaced))) }
            // a withdrawn card comes back only as the deck's own decision undone
            #expect(entering.subtracting(back).isDisjoint(with: gone))
            gone.subtract(back)
            displaced.subtract(entering)
            displaced.formUnion(before.subtracting(ids).subtracting(decided))
            shown.formUnion(ids)
            #expect(decided.union(ids).isSubset(of: all))
            // what undo can take back is exactly the standing decisions, the newest last
            let undoable = controller.deck.undoable
            #expect(Set(undoable.map(\.profile.id)) == decided && undoable.count == decided.count)
            #expect(controller.deck.canUndo == !undoable.isEmpty)
        }
        // every queued input was applied or explicitly refused once the deck is idle
        if !settles { #expect(!controller.snapshot.isAnimating) }
        #expect(controller.deck.queuedEvents.isEmpty)
        #expect(refusedLater <= queued)
    }
}
