import PropertyBased
import Testing

@testable import SwipeCore

/// `DeckController.wouldAskTheStore` says, before an event is applied,
/// whether applying it calls the recorder or the feed: `swipe serve` answers
/// the events it says no to on an event loop, where nothing may wait on the
/// database. The oracle is the controller itself: the same random scripts as
/// `DeckPropertyTests`, every preset, settled at once or with animations
/// finishing as events, the calls counted as each event is handled.
@Suite struct DeckStoreNeedsTests {
    /// `InMemoryFeed`, counting the questions asked of it.
    struct CountingFeed: ProfileFeed {
        var base: InMemoryFeed
        let asked = Counter()

        func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
            asked.count += 1
            return try base.nextProfiles(limit: limit, excluding: excluding)
        }

        mutating func deckDidRecord(_ action: DeckAction) { base.deckDidRecord(action) }
    }

    final class Counter: @unchecked Sendable { var count = 0 }

    @Test func thePredictionIsWhatHandlingDoes() async {
        let events = DeckPropertyTests.events + [.animationFinished]
        await propertyCheck(
            input: Gen.int(in: 0...9), Gen.int(in: 0..<events.count).array(of: 1...60), Gen.int(in: 0...3),
            Gen.bool
        ) { count, script, physics, settles in
            var controller = try DeckController(
                feed: CountingFeed(base: InMemoryFeed(people(count))), physics: PhysicsKind.allCases[physics],
                settlesImmediately: settles)
            for index in script {
                let event = events[index]
                if case let .withdraw(id) = event { controller.feed.base.decidedElsewhere(id) }
                let predicted = controller.wouldAskTheStore(event)
                let askedBefore = controller.feed.asked.count
                var recorded = 0
                _ = try? controller.handle(event) { _ in recorded += 1 }
                let asked = recorded > 0 || controller.feed.asked.count > askedBefore
                #expect(predicted == asked, "\(event) after \(script.map { events[$0] })")
                if predicted != asked { return }
            }
        }
    }

    /// The cases `swipe serve` leans on, worked by hand on the TanTan deck:
    /// a release short of the threshold springs back (no store); one past it
    /// records (and loads the next card); a drag or a cancel never asks.
    @Test func aReleaseThatSpringsBackAsksNothing() throws {
        var controller = try DeckController(feed: InMemoryFeed(people(6)), physics: .tantan)
        #expect(!controller.wouldAskTheStore(.drag(dx: 30, dy: 0)))
        _ = try controller.handle(.drag(dx: 30, dy: 0)) { _ in }
        #expect(!controller.wouldAskTheStore(.release(vx: 0, vy: 0)))
        #expect(!controller.wouldAskTheStore(.cancel))
        _ = try controller.handle(.drag(dx: 251, dy: 0)) { _ in }
        #expect(controller.wouldAskTheStore(.release(vx: 0, vy: 0)))
        #expect(controller.wouldAskTheStore(.button(.like)) == false, "refused mid-gesture: asks nothing")
        let before = controller.snapshot
        _ = controller.wouldAskTheStore(.release(vx: 0, vy: 0))
        #expect(controller.snapshot == before, "worked out on a copy")
    }
}
