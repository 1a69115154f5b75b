import SwipeTestSupport
import Testing

@testable import SwipeServer

/// The write queue's decisions (who commits, who waits, what is handed
/// over), with no threads or database.
struct GroupCommitTests {
    @Test func theFirstWriteCommitsAloneAndThoseArrivingMeanwhileAreHandedOverTogether() {
        var machine = GroupCommit<Int>(limit: 32)
        #expect(machine.arrive(1) == .commit([1]))
        #expect(machine.arrive(2) == .wait)
        #expect(machine.arrive(3) == .wait)
        #expect(machine.arrive(4) == .wait)
        #expect(machine.waitingCount == 3)
        #expect(machine.committed() == .handOver([2, 3, 4]))
        #expect(machine.waitingCount == 0)
        #expect(machine.arrive(5) == .wait, "5 arrives while 2, 3 and 4 commit")
        #expect(machine.committed() == .handOver([5]))
        #expect(machine.committed() == .rest)
        #expect(machine.arrive(6) == .commit([6]), "idle again: the next write commits at once")
    }

    @Test func aBatchHoldsAtMostTheLimitOldestFirst() {
        var machine = GroupCommit<Int>(limit: 32)
        #expect(machine.arrive(0) == .commit([0]))
        for write in 1...70 { #expect(machine.arrive(write) == .wait) }
        #expect(machine.committed() == .handOver(Array(1...32)))
        #expect(machine.committed() == .handOver(Array(33...64)))
        #expect(machine.committed() == .handOver(Array(65...70)))
        #expect(machine.committed() == .rest)
    }

    /// Random interleavings of arrivals and finished commits, held to what
    /// the queue promises: every write committed exactly once, in arrival
    /// order, one batch at a time, each batch as large as the limit and the
    /// waiting writes allow, and nobody left waiting once the queue rests.
    @Test(arguments: 0..<200)
    func randomInterleavingsCommitEveryWriteOnceInOrder(seed: Int) {
        var random = DiscoveryModel.Random(seed: seed)
        let limit = random.int(1...5)
        var machine = GroupCommit<Int>(limit: limit)
        var committing: [Int]?
        var waiting: [Int] = []  // the model's own queue
        var committedInOrder: [Int] = []
        var next = 0
        for _ in 0..<300 {
            if committing == nil || random.chance(50) {
                let write = next
                next += 1
                switch machine.arrive(write) {
                case .commit(let batch):
                    #expect(committing == nil, "a second batch while one commits")
                    #expect(batch == [write])
                    committing = batch
                case .wait:
                    #expect(committing != nil, "waiting with nobody committing")
                    waiting.append(write)
                }
            } else if let batch = committing {
                committedInOrder += batch
                switch machine.committed() {
                case .rest:
                    #expect(waiting.isEmpty, "the queue rests with writes waiting")
                    committing = nil
                case .handOver(let next):
                    #expect(next == Array(waiting.prefix(limit)))
                    waiting.removeFirst(min(limit, waiting.count))
                    committing = next
                }
            }
            #expect(machine.waitingCount == waiting.count)
        }
        while let batch = committing {
            committedInOrder += batch
            if case .handOver(let next) = machine.committed() { committing = next } else { committing = nil }
        }
        #expect(committedInOrder == Array(0..<next))
    }
}
