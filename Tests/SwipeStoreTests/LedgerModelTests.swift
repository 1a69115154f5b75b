import Foundation
import PropertyBased
import SwipeCore
import SwipeTestSupport
import Testing
@testable import SwipeStore
@testable import SwipeSQLite
@testable import SwipeCSV

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

    @Test func ledgerAndMatchesFollowTheModel() async {
        await propertyCheck(input: Gen.int(in: 0..<64).array(of: 1...60)) { codes in
            try Self.check(codes.map(Step.init))
        }
    }

    static func check(_ steps: [Step]) throws {
        let folder = TemporaryFolder()
        let store = try folder.store(profiles: people)
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
                    #expect(throws: StoreError.alreadyDecided(
                        viewer: viewer, profile: profile, decision: existing.decision, decidedAt: existing.decidedAt)) {
                        try store.record(viewer: viewer, profile: profile, decision: decision, via: .drag, at: date)
                    }
                } else {
                    let result = try store.record(viewer: viewer, profile: profile, decision: decision, via: .drag, at: date)
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
        #expect(try standing(in: store) == model.standing)
        #expect(try matches(in: store) == model.matches)
        // History loses nothing: every recorded decision is a row, every undo a stamp.
        #expect(try store.connection.scalarInt("SELECT count(*) FROM decisions") == recorded)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM decisions WHERE undone_at IS NOT NULL") == undone)
    }

    static func standing(in store: Store) throws -> [[String]: Model.Standing] {
        var out: [[String]: Model.Standing] = [:]
        try store.connection.statement("""
            SELECT v.id, p.id, d.decision, d.decided_at FROM decisions AS d
            JOIN profiles AS v ON v.key = d.viewer JOIN profiles AS p ON p.key = d.profile
            WHERE d.undone_at IS NULL
            """).bind().forEachRow { row in
            out[[row.text(0), row.text(1)]] = .init(decision: Decision(rawValue: row.text(2))!, decidedAt: row.text(3))
        }
        return out
    }

    static func matches(in store: Store) throws -> [[String]: String] {
        var out: [[String]: String] = [:]
        try store.connection.statement("""
            SELECT l.id, h.id, m.matched_at FROM matches AS m
            JOIN profiles AS l ON l.key = m.low JOIN profiles AS h ON h.key = m.high
            """).bind().forEachRow { out[[$0.text(0), $0.text(1)]] = $0.text(2) }
        return out
    }
}
