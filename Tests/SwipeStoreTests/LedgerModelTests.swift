import Foundation
import PropertyBased
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// Random sequences of decisions and undos across four people keep the
/// store's ledger (standing decisions) and matches table equal to a plain
/// in-memory model of the README's ledger rules ("Architecture").
@Suite struct LedgerModelTests {
    static let people = ["p0", "p1", "p2", "p3"]
    static let start = Date(timeIntervalSince1970: 1_795_218_901.123)  // 2026-11-20T23:55:01.123Z

    /// One step: `viewer` and `profile` index `people`; `kind` 0–2 is like,
    /// hate, superlike and 3 is undo. Encoded in one integer so shrinking works.
    struct Step: CustomStringConvertible {
        var viewer: Int, profile: Int, kind: Int
        init(_ code: Int) { (viewer, profile, kind) = (code / 16, code / 4 % 4, code % 4) }
        var decision: Decision? { kind < 3 ? [.like, .hate, .superlike][kind] : nil }
        var description: String { "\(people[viewer])→\(people[profile]) \(decision?.rawValue ?? "undo")" }
    }

    /// The ledger rules as plain data: one standing decision per (viewer, profile);
    /// a match while both directions stand positive, at the later time.
    struct Model {
        struct Standing: Hashable { var decision: Decision; var decidedAt: String }
        var standing: [[String]: Standing] = [:]

        var matches: [[String]: String] {
            var out: [[String]: String] = [:]
            for (pair, mine) in standing where mine.decision.isPositive && pair[0] < pair[1] {
                if let theirs = standing[[pair[1], pair[0]]], theirs.decision.isPositive {
                    out[pair] = max(mine.decidedAt, theirs.decidedAt)
                }
            }
            return out
        }
    }

    /// One database per backend for all the runs: each run acts on four
    /// people of its own (`r7-p0`…), so no run sees another's decisions.
    @Test(arguments: TestBackend.all) func ledgerAndMatchesFollowTheModel(_ backend: TestBackend) async throws {
        let stores = TestStores()
        let store = try stores.open(backend)
        let runs = Counter()
        await propertyCheck(input: Gen.int(in: 0..<64).array(of: 1...60)) { codes in
            try Self.check(codes.map(Step.init), in: store, run: "r\(runs.next())-")
        }
        withExtendedLifetime(stores) {}
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.withLock {
                value += 1; return value
            }
        }
    }

    static func check(_ steps: [Step], in store: any SwipeDatabase, run prefix: String) throws {
        let people = Self.people.map { prefix + $0 }
        for id in people { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        var model = Model()
        var recorded = 0, undone = 0
        for (index, step) in steps.enumerated() {
            let viewer = people[step.viewer], profile = people[step.profile]
            let date = start.addingTimeInterval(Double(index))
            let at = Timestamp.string(from: date)
            let matchesBefore = model.matches
            if let decision = step.decision {
                if viewer == profile {
                    #expect(throws: StoreError.selfDecision(viewer), "\(step)") {
                        try store.record(viewer: viewer, profile: profile, decision: decision, via: .drag, at: date)
                    }
                } else if let existing = model.standing[[viewer, profile]] {
                    #expect(
                        throws: StoreError.alreadyDecided(
                            viewer: viewer, profile: profile, decision: existing.decision, decidedAt: existing.decidedAt
                        )
                    ) {
                        try store.record(viewer: viewer, profile: profile, decision: decision, via: .drag, at: date)
                    }
                } else {
                    let result = try store.record(
                        viewer: viewer, profile: profile, decision: decision, via: .drag, at: date)
                    model.standing[[viewer, profile]] = .init(decision: decision, decidedAt: at)
                    recorded += 1
                    let made = model.matches.count > matchesBefore.count
                    #expect((result.match != nil) == made, "\(step)")
                }
            } else if model.standing[[viewer, profile]] == nil {
                #expect(throws: StoreError.notDecided(viewer: viewer, profile: profile), "\(step)") {
                    try store.undo(viewer: viewer, profile: profile, at: date)
                }
            } else {
                let result = try store.undo(viewer: viewer, profile: profile, at: date)
                model.standing[[viewer, profile]] = nil
                undone += 1
                #expect(result.unmatched == (model.matches.count < matchesBefore.count), "\(step)")
            }
        }
        let history = try people.flatMap { viewer in
            try store.history(HistoryQuery(viewer: viewer)).map { (viewer, $0) }
        }
        var standing: [[String]: Model.Standing] = [:]
        for (viewer, entry) in history where entry.undoneAt == nil {
            #expect(
                standing.updateValue(
                    .init(decision: entry.decision, decidedAt: entry.decidedAt),
                    forKey: [viewer, entry.profile]) == nil, "two standing decisions \(viewer)→\(entry.profile)")
        }
        #expect(standing == model.standing)
        #expect(try matches(in: store, people: people) == model.matches)
        // History loses nothing: every recorded decision is a row, every undo a stamp.
        #expect(history.count == recorded)
        #expect(history.filter { $0.1.undoneAt != nil }.count == undone)
    }

    /// Every standing match, as seen from both sides (which must agree).
    static func matches(in store: any SwipeDatabase, people: [String]) throws -> [[String]: String] {
        var out: [[String]: String] = [:]
        var seen: [[String]: String] = [:]
        for viewer in people {
            for match in try store.matches(viewer: viewer) {
                let pair = [viewer, match.profile].sorted()
                if viewer == pair[0] { out[pair] = match.matchedAt } else { seen[pair] = match.matchedAt }
            }
        }
        #expect(out == seen, "each match is listed for both people, at the same time")
        return out
    }
}
