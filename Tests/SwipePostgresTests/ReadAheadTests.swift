import Foundation
import SwipeCore
@_spi(Testing) import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// The next card's read rides with the deck's decision (`PGConnection+ReadAhead.swift`):
/// a REPL's feed (`PostgresStore.feed(viewer:)`) deals exactly what a feed
/// that reads after each decision deals, through random likes, hates,
/// superlikes, undos and other people's likes arriving in between; the read
/// did ride (its answers were taken); and an answer whose write did not
/// commit is never used.
@Suite(.needsPostgres) struct ReadAheadTests {
    /// A database with the viewer "v" and `count` others, none with a place
    /// or preferences (everyone eligible both ways); a store on it.
    static func populated(_ database: PostgresTestDatabase, count: Int) throws -> PostgresStore {
        let store = try PostgresStore(uri: database.uri, create: true)
        _ = try store.upsert(Profile(id: "v", name: "Vera", age: 30, gender: "f"))
        for index in 0..<count {
            _ = try store.upsert(Profile(id: "p\(index)", name: "P\(index)", age: 20 + index % 30, gender: "m"))
        }
        return store
    }

    /// 2026-11-20T10:00:00Z plus `step` seconds.
    static func at(_ step: Int) -> Date { Date(timeIntervalSince1970: 1_795_600_800 + Double(step)) }

    /// One deck over `feed`: four cards, each decision takes the first and
    /// asks the feed for one more; an undo puts the last decided card back first.
    struct Deck {
        var feed: any ProfileFeed
        var cards: [Profile] = []
        var decided: [DeckDecision] = []

        init(feed: any ProfileFeed) throws {
            self.feed = feed
            cards = try feed.nextProfiles(limit: 4, excluding: [])
        }

        mutating func decide(_ decision: Decision, store: PostgresStore, at date: Date) throws {
            let card = cards.removeFirst()
            _ = try store.record(viewer: "v", profile: card.id, decision: decision, via: .button, at: date)
            let made = DeckDecision(profile: card, decision: decision, via: .button)
            decided.append(made)
            feed.deckDidRecord(.record(made))
            cards += try feed.nextProfiles(limit: 4 - cards.count, excluding: Set(cards.map(\.id)))
        }

        mutating func undo(store: PostgresStore, at date: Date) throws {
            let made = decided.removeLast()
            _ = try store.undo(viewer: "v", profile: made.profile.id, at: date)
            feed.deckDidRecord(.unrecord(made))
            cards.insert(made.profile, at: 0)
            if cards.count > 4 { cards.removeLast() }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func dealsWhatAReadAfterEachDecisionDeals(seed: UInt64) throws {
        let databases = (try PostgresTestDatabase(), try PostgresTestDatabase())
        let ahead = try Self.populated(databases.0, count: 60)
        let after = try Self.populated(databases.1, count: 60)
        // Other people, on connections of their own.
        let others = (try PostgresStore(uri: databases.0.uri), try PostgresStore(uri: databases.1.uri))
        var deckAhead = try Deck(feed: ahead.feed(viewer: "v"))
        var deckAfter = try Deck(feed: PostgresFeed(connection: after.connection, viewer: "v"))
        #expect(deckAhead.cards.map(\.id) == deckAfter.cards.map(\.id))
        var random = SplitMix64(seed: seed)
        var decisions = 0
        for step in 1...80 {
            let roll = random.next() % 10
            if roll < 2, !deckAhead.decided.isEmpty {
                try deckAhead.undo(store: ahead, at: Self.at(step))
                try deckAfter.undo(store: after, at: Self.at(step))
            } else if roll == 2 {
                // Someone likes Vera between two of her decisions: a liker is dealt first.
                let liker = "p\(random.next() % 60)"
                for store in [others.0, others.1] {
                    _ = try? store.record(viewer: liker, profile: "v", decision: .like, via: .drag, at: Self.at(step))
                }
            } else if !deckAhead.cards.isEmpty {
                let decision: Decision = [.like, .hate, .superlike][Int(random.next() % 3)]
                try deckAhead.decide(decision, store: ahead, at: Self.at(step))
                try deckAfter.decide(decision, store: after, at: Self.at(step))
                decisions += 1
            }
            #expect(deckAhead.cards.map(\.id) == deckAfter.cards.map(\.id), "step \(step)")
        }
        // The read rode with most decisions (a fetch after one whose batch ran out ranks anew instead).
        #expect(decisions > 20)
        #expect(ahead.connection.readAheadAnswersTaken * 2 > decisions)
        #expect(after.connection.readAheadAnswersTaken == 0)
    }

    @Test func anAnswerWhoseWriteDidNotCommitIsNotUsed() throws {
        let database = try PostgresTestDatabase()
        let store = try Self.populated(database, count: 12)
        var deck = try Deck(feed: store.feed(viewer: "v"))
        try deck.decide(.like, store: store, at: Self.at(1))
        let taken = store.connection.readAheadAnswersTaken
        #expect(taken == 1)
        // The decision's COMMIT fails: the read that rode with it saw a like now rolled back.
        struct Refused: Error {}
        store.commitStep = { _ in throw Refused() }
        let card = deck.cards[0]
        #expect(throws: Refused.self) {
            try store.record(viewer: "v", profile: card.id, decision: .like, via: .button, at: Self.at(2))
        }
        store.commitStep = nil
        // The deck's next fetch, the connection's next statement, finds no answer to take: it reads as usual.
        let held = Set(deck.cards.map(\.id))
        let next = try deck.feed.nextProfiles(limit: 1, excluding: held)
        #expect(store.connection.readAheadAnswersTaken == taken)
        #expect(next.count == 1 && !held.contains(next[0].id))
        #expect(try store.history(HistoryQuery(viewer: "v")).count == 1)
    }

    @Test func anUndoLeavesTheReadForTheDecisionAfterIt() throws {
        let database = try PostgresTestDatabase()
        let store = try Self.populated(database, count: 12)
        var deck = try Deck(feed: store.feed(viewer: "v"))
        try deck.decide(.hate, store: store, at: Self.at(1))
        try deck.undo(store: store, at: Self.at(2))
        try deck.decide(.like, store: store, at: Self.at(3))
        // Both fetches after a decision took the answer that rode with it.
        #expect(store.connection.readAheadAnswersTaken == 2)
    }
}
