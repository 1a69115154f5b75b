import Testing

@testable import SwipeCore

/// Keeps a log shared by a recorder closure and a feed.
final class Log {
    var lines: [String] = []
}

/// An InMemoryFeed that writes every question it is asked into a log.
struct LoggingFeed: ProfileFeed {
    var inner: InMemoryFeed
    let log: Log

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        log.lines.append("load excluding \(excluding.sorted().joined(separator: ","))")
        return inner.nextProfiles(limit: limit, excluding: excluding)
    }

    mutating func deckDidRecord(_ action: DeckAction) {
        inner.deckDidRecord(action)
    }
}

@Suite struct DeckRecyclingTests {
    @Test func slotsRotateAndProfilesAdvance() throws {
        var controller = try deck(10)
        #expect(controller.snapshot.slots == [0, 1, 2, 3])
        #expect(controller.snapshot.ids == ["p0", "p1", "p2", "p3"])
        try controller.send(.button(.like))
        // slot 0 left, was refilled with p4 and went to the back; the others moved up.
        #expect(controller.snapshot.slots == [1, 2, 3, 0])
        #expect(controller.snapshot.ids == ["p1", "p2", "p3", "p4"])
        #expect(controller.snapshot.cards.map(\.state) == [.first, .second, .third, .other])
        for _ in 0..<3 { try controller.send(.button(.hate)) }
        #expect(controller.snapshot.slots == [0, 1, 2, 3])
        #expect(controller.snapshot.ids == ["p4", "p5", "p6", "p7"])
    }

    @Test func manyCyclesShowEveryProfileOnceAndDecideItOnce() throws {
        var controller = try deck(41)
        var decided: [String] = []
        var seen: [String] = controller.snapshot.ids.compactMap { $0 }
        for round in 0..<41 {
            let outcome = round.isMultiple(of: 2) ? try controller.swipe(150) : try controller.send(.button(.hate))
            decided += outcome.decisions.map(\.profile.id)
            for id in outcome.snapshot.ids.compactMap({ $0 }) where !seen.contains(id) { seen.append(id) }
            // slot of the top card rotates 0, 1, 2, 3, 0, …
            if outcome.snapshot.mode != .empty { #expect(outcome.snapshot.cards[0].slot == (round + 1) % 4) }
        }
        #expect(decided == (0..<41).map { "p\($0)" })
        #expect(seen == decided)
        #expect(controller.snapshot.mode == .empty)
    }

    @Test func recorderRunsBeforeTheFeedIsAskedAndTheDeckIsExcluded() throws {
        let log = Log()
        var controller = try DeckController(feed: LoggingFeed(inner: InMemoryFeed(people(6)), log: log))
        // initial fill: four questions, each excluding what is already loaded.
        #expect(
            log.lines == [
                "load excluding ", "load excluding p0", "load excluding p0,p1",
                "load excluding p0,p1,p2",
            ])
        log.lines = []
        let outcome = try controller.handle(.drag(dx: 120, dy: 0)) { _ in log.lines.append("record") }
        #expect(outcome.actions.isEmpty)
        _ = try controller.handle(.release(vx: 0, vy: 0)) { action in
            if case let .record(made) = action { log.lines.append("record \(made.profile.id)") }
        }
        #expect(log.lines == ["record p0", "load excluding p1,p2,p3"])
    }

    @Test func actionOrderOfASwipe() throws {
        var controller = try deck(5)
        let outcome = try controller.swipe(150)
        let kinds = outcome.actions.map { action -> String in
            switch action {
            case .record: "record"
            case let .load(slot): "load \(slot)"
            case let .animate(line): line.name
            default: "other"
            }
        }
        #expect(kinds == ["record", "fly-out", "load 0", "fade-in"])
    }

    @Test func fewerThanFourProfiles() throws {
        var controller = try deck(2)
        var snapshot = controller.snapshot
        #expect(snapshot.mode == .deck)
        #expect(snapshot.ids == ["p0", "p1", nil, nil])
        #expect(snapshot.cards.map(\.pose.alpha) == [1, 1, 0, 0])
        try controller.send(.button(.like))
        snapshot = controller.snapshot
        #expect(snapshot.ids == ["p1", nil, nil, nil])
        #expect(snapshot.cards[0].slot == 1)
        let last = try controller.send(.button(.hate))
        #expect(last.actions.contains(.becameEmpty))
        #expect(last.snapshot.mode == .empty)
        #expect(last.snapshot.cards.count == 4)
        #expect(throws: DeckRefusal.noCard) { try controller.send(.button(.like)) }
        #expect(throws: DeckRefusal.noCard) { try controller.send(.drag(dx: 1, dy: 1)) }
        #expect(throws: DeckRefusal.noCard) { try controller.send(.open) }
    }

    @Test func emptyFeedAndReload() throws {
        var controller = try deck(0)
        #expect(controller.snapshot.mode == .empty)
        // a reload that finds nothing says so again.
        let dry = try controller.send(.reload)
        #expect(dry.actions.filter { if case .load = $0 { true } else { false } }.count == 4)
        #expect(dry.actions.last == .becameEmpty)
        controller.feed.append(people(3, from: 10))
        let full = try controller.send(.reload)
        #expect(full.snapshot.mode == .deck)
        #expect(full.snapshot.ids == ["p10", "p11", "p12", nil])
        #expect(full.timelineNames == ["fade-in"])
        // a further reload only asks for the parked slot.
        controller.feed.append(people(1, from: 20))
        let more = try controller.send(.reload)
        #expect(more.actions.first == .load(slot: 3))
        #expect(more.snapshot.ids == ["p10", "p11", "p12", "p20"])
    }
}

struct StoreFull: Error {}

@Suite struct DeckControllerFailureTests {
    @Test func failedRecordChangesNothingAndCanBeRetried() throws {
        var controller = try deck(6)
        try controller.send(.drag(dx: 150, dy: 0))
        let before = controller.snapshot
        #expect(throws: StoreFull.self) {
            try controller.handle(.release(vx: 0, vy: 0)) { _ in throw StoreFull() }
        }
        #expect(controller.snapshot == before)
        #expect(controller.feed.decided.isEmpty)
        let retried = try controller.send(.release(vx: 0, vy: 0))
        #expect(retried.decisions.map(\.profile.id) == ["p0"])
        #expect(retried.snapshot.ids == ["p1", "p2", "p3", "p4"])
    }

    struct BrokenFeed: ProfileFeed {
        var inner: InMemoryFeed
        var broken = false
        func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
            if broken { throw StoreFull() }
            return inner.nextProfiles(limit: limit, excluding: excluding)
        }
        mutating func deckDidRecord(_ action: DeckAction) { inner.deckDidRecord(action) }
    }

    @Test func failedLoadAfterARecordParksTheSlot() throws {
        var controller = try DeckController(feed: BrokenFeed(inner: InMemoryFeed(people(6))))
        controller.feed.broken = true
        var recorded: [DeckAction] = []
        #expect(throws: StoreFull.self) {
            try controller.handle(.button(.like)) { recorded.append($0) }
        }
        // the decision was stored, so the deck moved on; slot 0 is parked, not stuck loading.
        #expect(recorded.count == 1)
        #expect(controller.snapshot.ids == ["p1", "p2", "p3", nil])
        #expect(!controller.deck.isBusy)
        controller.feed.broken = false
        #expect(try controller.send(.reload).snapshot.ids == ["p1", "p2", "p3", "p4"])
    }
}
