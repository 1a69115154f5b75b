import Foundation
import SwipeCore
import SwipeStore

/// An undo in one round trip (schema.postgres.sql, "The undo in one round trip").
///
/// SwipeStore's `undoStepByStep` is the one definition of what an undo does;
/// run statement by statement it costs PostgreSQL thirteen round trips (keys,
/// two locks, the standing decision, the rules, the stamp, the conversation,
/// the match, two cursors, the transaction id, COMMIT). Here the same steps
/// run on the server, in the same order, as `swipe_undo_1`: the write is
/// BEGIN, that call, COMMIT. The function returns an outcome; this file words
/// it as the Swift rules do (the same `StoreError`s).
///
/// `DecisionModelTests` holds the two paths to each other: the same random
/// undos among decisions, messages, blocks and rewind rules on SQLite and on
/// PostgreSQL give the same answers, refusals word for word, and the same rows.
///
/// The function returns its transaction id, so that a COMMIT whose answer is
/// lost is looked up (`PostgresStore.write`) without another round trip
/// before it. A database without the function (a role without CREATE) takes
/// the step-by-step path.
extension PostgresStore {
    @discardableResult
    public func undo(viewer: String, profile: String, at date: Date?) throws -> UndoneDecision {
        guard undoesOnServer else { return try undoStepByStep(viewer: viewer, profile: profile, at: date) }
        try requireHoldable(viewer, profile)
        let undoneAt = Timestamp.string(from: date ?? Date())
        return try write {
            guard
                let answer = try executor.first(
                    UndoAnswer.self, Self.undoSQL, [.text(viewer), .text(profile), .text(undoneAt)])
            else {
                throw StoreError.notStored(table: "decisions", what: "swipe_undo_1 returned no row")
            }
            undosAnsweredOnServer += 1
            let undone = try answer.undone(viewer: viewer, profile: profile, undoneAt: undoneAt)
            knownTransactionID = answer.transactionID
            return undone
        }
    }

    static let undoSQL = "SELECT * FROM swipe_undo_1($1, $2, $3)"
}

/// The row `swipe_undo_1` returns, by column name.
struct UndoAnswer: FetchableRow {
    var outcome: UndoOutcome
    var transactionID: Int64?
    /// The standing decision, decoded as the Swift steps decode it before
    /// acting on it (`StoreError.undecodable` naming its row); nil when none.
    var standing: (decision: Decision, via: Via, decidedAt: String)?
    var rule: String?
    var unmatched: Bool

    init(row: some SQLRow) throws {
        outcome = try UndoOutcome(answered: row.text("outcome"))
        transactionID = try row.optionalInt("xact").map(Int64.init)
        standing = try row.optionalInt("standing_key").map { key in
            (try row.decoded("decision", key: key), try row.decoded("via", key: key), try row.text("decided_at"))
        }
        rule = try row.optionalText("rule")
        unmatched = (try row.optionalInt("unmatched") ?? 0) > 0
    }

    /// The undo as done, or the refusal the step-by-step rules throw for the same case.
    func undone(viewer: String, profile: String, undoneAt: String) throws -> UndoneDecision {
        switch (outcome, standing) {
        case (.unknownViewer, _): throw StoreError.unknownProfile(viewer)
        case (.unknownProfile, _): throw StoreError.unknownProfile(profile)
        case (.notDecided, _): throw StoreError.notDecided(viewer: viewer, profile: profile)
        case (.rewind, let standing?):
            throw StoreError.rewindRefused(
                rule: rule.flatMap(RewindRule.init(rawValue:)) ?? .any, decision: standing.decision)
        case (.undone, let standing?):
            return UndoneDecision(
                viewer: viewer, profile: profile, decision: standing.decision, via: standing.via,
                decidedAt: standing.decidedAt, undoneAt: undoneAt, unmatched: unmatched)
        case (.rewind, nil), (.undone, nil):
            throw StoreError.notStored(
                table: "decisions", what: "swipe_undo_1 answered \(outcome.rawValue) without the standing decision")
        }
    }
}
