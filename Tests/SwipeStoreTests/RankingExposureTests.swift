import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The exposure rule (README "Ranking"), worked out by hand: someone active
/// who was dealt more than their share in the last 24 hours (the mean of the
/// active people in reach, plus three) sinks; within it they do not.
/// Three people the ranking cannot otherwise tell apart (active an hour ago,
/// no decisions, no place, nothing shared, each dealt 10 times in all, so none
/// is new): without the rule they come in the viewer's tie-hash order
/// (`DiscoveryModel.tieOrder`).
@Suite struct RankingExposureTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let viewer = Profile(id: "v", name: "V", age: 30)

    /// The order of a, b and c when the tie order's first was dealt `dealt`
    /// times in the last 24 hours and the others none.
    static func order(firstDealt dealt: Int) -> [String] {
        let first = DiscoveryModel.tieOrder("v", ["a", "b", "c"])[0]
        let anHourAgo = Timestamp.string(from: now.addingTimeInterval(-3600))
        let candidates = ["a", "b", "c"].enumerated().map { index, id in
            Discovery.RankCandidate(
                key: index + 1, profile: Profile(id: id, name: id, age: 30),
                stats: Discovery.RankStats(
                    lastActiveAt: anHourAgo, dealtSince: anHourAgo, dealt: id == first ? dealt : 0, dealtTotal: 10))
        }
        return Ranking.order(viewer: viewer, viewerStats: Discovery.RankStats(), candidates: candidates, now: now)
            .map(\.profile.id)
    }

    @Test func dealtMoreThanTheShareSinks() {
        let ties = DiscoveryModel.tieOrder("v", ["a", "b", "c"])
        // Dealt 4 times: the mean is 4/3, the share 13/3; 4 is within it.
        #expect(Self.order(firstDealt: 4) == ties)
        // Dealt 5 times: the mean is 5/3, the share 14/3; 5 is over it, so
        // it sinks below the two dealt none (under twice the mean plus
        // three, 19/3, it would have stayed first).
        #expect(Self.order(firstDealt: 5) == Array(ties.dropFirst()) + [ties[0]])
    }

    /// Dealt long ago (the 24 hours are over): no longer counted, first again.
    @Test func aDayLaterItCountsNoMore() {
        let ties = DiscoveryModel.tieOrder("v", ["a", "b", "c"])
        let first = ties[0]
        let twoDaysAgo = Timestamp.string(from: Self.now.addingTimeInterval(-2 * 86_400))
        let anHourAgo = Timestamp.string(from: Self.now.addingTimeInterval(-3600))
        let candidates = ["a", "b", "c"].enumerated().map { index, id in
            Discovery.RankCandidate(
                key: index + 1, profile: Profile(id: id, name: id, age: 30),
                stats: Discovery.RankStats(
                    lastActiveAt: anHourAgo, dealtSince: id == first ? twoDaysAgo : anHourAgo,
                    dealt: id == first ? 50 : 0, dealtTotal: 60))
        }
        #expect(
            Ranking.order(
                viewer: Self.viewer, viewerStats: Discovery.RankStats(), candidates: candidates, now: Self.now
            )
            .map(\.profile.id) == ties)
    }
}
