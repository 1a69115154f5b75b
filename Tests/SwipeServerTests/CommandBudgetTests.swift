import SwipeServer
import Testing

struct CommandBudgetTests {
    @Test func aBurstIsAllowedThenTheBucketRefillsAtItsRate() {
        var budget = CommandBudget(perSecond: 10, burst: 5)
        let start = ContinuousClock.now
        for _ in 0..<5 { #expect(spend(&budget, start)) }
        #expect(!spend(&budget, start))
        // 10 a second: one more after 0.1 s, not before.
        #expect(!spend(&budget, start + .milliseconds(90)))
        #expect(spend(&budget, start + .milliseconds(101)))
        #expect(!spend(&budget, start + .milliseconds(105)))
        // Never more than the burst, however long the pause.
        let later = start + .seconds(3600)
        for _ in 0..<5 { #expect(spend(&budget, later)) }
        #expect(!spend(&budget, later))
    }

    @Test func aSteadyRateUnderTheLimitIsNeverRefused() {
        var budget = CommandBudget(perSecond: 100, burst: 200)
        let start = ContinuousClock.now
        for frame in 0..<6000 { #expect(spend(&budget, start + .milliseconds(frame * 16 + 1))) }
    }
}

/// `budget.spend(at:)` outside `#expect`, which cannot call a mutating method.
private func spend(_ budget: inout CommandBudget, _ now: ContinuousClock.Instant) -> Bool {
    budget.spend(at: now)
}
