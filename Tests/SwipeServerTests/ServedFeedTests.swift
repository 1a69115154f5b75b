import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeServer

/// A served deck's feed (`PooledFeed`): most cards come from the deck's
/// ranked batch without a write, beside SQLite's one writer, so a like
/// waits for the writer once (its decision), not twice (issue 23, the like
/// under `swipe serve` load). What must not change with it: every card
/// dealt once and still eligible when dealt, likers first, and each card's
/// impression counted once (README "Ranking").
@Suite struct ServedFeedTests {
    let stores = TestStores("swipe-served-feed")

    /// The viewer `v` and twenty others, none with preferences, places or decisions.
    static let others = (0..<20).map { String(format: "p%02d", $0) }

    /// The ids of the profiles an answer sends the page (the cards it has not seen).
    static func sent(_ answer: String) throws -> [String] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let profiles = object["profiles"] as? [[String: Any]] ?? []
        return profiles.compactMap { $0["id"] as? String }
    }

    /// Ten likes: each stored once, each a new card that was never dealt
    /// before and is still eligible (two cards of the batch decided in
    /// another session meanwhile are passed over); on SQLite each like after
    /// the first takes one commit of the writer, its decision (the refill
    /// read beside it). When the socket closes, every card dealt has been
    /// counted once and no other.
    @Test(arguments: TestBackend.all) func likesDealTheBatchBesideTheWriterAndCountEachCardOnce(
        _ kind: TestBackend
    ) throws {
        let store = try stores.store(kind, profiles: ["v"] + Self.others)
        let backend = try stores.serverBackend(kind)
        let session = try backend.openSession(viewer: "v") { _ in }
        let first = session.run("deck")
        var dealt = try Self.sent(first)
        #expect(dealt.count == 4, "\(first)")
        // Decided by v in another session, after this deck's batch was ranked.
        let elsewhere = Self.others.filter { !dealt.contains($0) }.prefix(2)
        for id in elsewhere { _ = try store.record(viewer: "v", profile: id, decision: .hate, via: .button) }

        for step in 0..<10 {
            let before = backend.commitBatches
            let answer = session.run("like")
            #expect(answer.hasPrefix("{\"ok\":true"), "\(answer)")
            let new = try Self.sent(answer)
            #expect(new.count == 1, "like \(step): \(answer)")
            dealt += new
            if kind == .sqlite {
                #expect(backend.commitBatches - before == 1, "like \(step)")
            }
        }
        #expect(Set(dealt).count == dealt.count, "a card dealt twice: \(dealt)")
        #expect(Set(dealt).isDisjoint(with: elsewhere), "\(dealt)")
        let liked = try store.history(HistoryQuery(viewer: "v", profile: nil)).filter { $0.decision == .like }
        #expect(liked.count == 10)

        session.close()
        let reader = try #require(try stores.open(kind) as? any DiscoveryReader)
        for id in Self.others {
            #expect(try reader.rankStats(id: id)?.dealtTotal == (dealt.contains(id) ? 1 : 0), "\(id)")
        }
    }

    /// A like made after the deck's batch was ranked (in another session)
    /// comes first: the card dealt after the next decision is the liker,
    /// not the batch's next card.
    @Test(arguments: TestBackend.all) func aNewLikerComesBeforeTheBatch(_ kind: TestBackend) throws {
        let store = try stores.store(kind, profiles: ["v"] + Self.others)
        let backend = try stores.serverBackend(kind)
        let session = try backend.openSession(viewer: "v") { _ in }
        var dealt = try Self.sent(session.run("deck"))
        dealt += try Self.sent(session.run("like"))
        let liker = try #require(Self.others.last { !dealt.contains($0) })
        _ = try store.record(viewer: liker, profile: "v", decision: .like, via: .button)
        let answer = session.run("hate")
        #expect(answer.hasPrefix("{\"ok\":true"), "\(answer)")
        #expect(try Self.sent(answer) == [liker], "\(answer)")
    }
}
