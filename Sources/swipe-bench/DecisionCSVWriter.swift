import Foundation
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore

/// Who is who in a generated database of `count` profiles (keys 1…count, in
/// file order). The roles are fixed so every benchmark knows whom to ask for.
struct Roles {
    let count: Int

    /// Decided 20% of all profiles (200k at 1M), drawn at random from the
    /// first 40% of keys, so the feed must step over holes, not a clean prefix.
    var heavyViewer: Int { 1 }
    var heavyDecisions: Int { count / 5 }
    /// Liked about 1,000 people who like them back (fewer in small files).
    var manyMatchesViewer: Int { 2 }
    var manyMatches: Int { min(1_000, count / 20) }
    /// Eight matches and twenty unanswered likes.
    var fewMatchesViewer: Int { 3 }
    /// Light viewers and their targets come from here.
    var ordinary: ClosedRange<Int> { 10...(count - 400) }
    /// Never decided anything: feed benchmarks take `freshViewer(run)`,
    /// ledger benchmarks `ledgerViewer(run)`, REPL benchmarks `replViewer(run)`.
    func freshViewer(_ run: Int) -> Int { count - run }
    func ledgerViewer(_ run: Int) -> Int { count - 100 - run }
    func replViewer(_ run: Int) -> Int { count - 200 - run }
}

/// Writes the decisions CSV (`viewer,profile,decision,decided_at,via`) that
/// goes with `ProfileCSVWriter`'s file of the same size: the heavy viewer,
/// the two match viewers and about count/50 light viewers with 1–9 each.
enum DecisionCSVWriter {
    static func write(roles: Roles, to path: String, seed: UInt64 = 0x5EED_0002) throws {
        var random = SplitMix64(seed: seed)
        let out = try ChunkWriter(path: path)
        out.write("viewer,profile,decision,decided_at,via\r\n")
        var taken = Set<UInt64>()
        var second = 0
        func emit(_ viewer: Int, _ profile: Int, _ decision: Decision) {
            guard viewer != profile, taken.insert(UInt64(viewer) << 32 | UInt64(profile)).inserted else { return }
            second += 1
            let time = Timestamp.string(from: Date(timeIntervalSince1970: 1_767_225_600 + Double(second)))
            let via = Via.allCases[second % 3].rawValue
            out.write(
                "\(ProfileCSVWriter.id(viewer)),\(ProfileCSVWriter.id(profile)),\(decision.rawValue),\(time),\(via)\r\n"
            )
        }
        func anyDecision() -> Decision {
            let roll = random.int(in: 0...99)
            return roll < 30 ? .like : roll < 95 ? .hate : .superlike
        }

        let heavyRange = 2...max(3, roles.count * 2 / 5)
        var heavyTargets = Set<Int>()
        while heavyTargets.count < min(roles.heavyDecisions, heavyRange.count) {
            heavyTargets.insert(random.int(in: heavyRange))
        }
        for target in heavyTargets.sorted() { emit(roles.heavyViewer, target, anyDecision()) }

        for (viewer, matches, unanswered) in [
            (roles.manyMatchesViewer, roles.manyMatches, 0), (roles.fewMatchesViewer, 8, 20),
        ] {
            var partners = Set<Int>()
            while partners.count < matches + unanswered { partners.insert(random.int(in: roles.ordinary)) }
            for (offset, partner) in partners.sorted().enumerated() {
                emit(viewer, partner, .like)
                if offset < matches { emit(partner, viewer, random.chance(0.2) ? .superlike : .like) }
            }
        }

        for _ in 0..<(roles.count / 50) {
            let viewer = random.int(in: roles.ordinary)
            for _ in 0..<random.int(in: 1...9) { emit(viewer, random.int(in: roles.ordinary), anyDecision()) }
        }
        try out.finish()
    }
}
