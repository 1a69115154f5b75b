import Foundation
import SwipeCore
import SwipeStore

/// A decision in one round trip (Documentation/PostgreSQL.md; schema.postgres.sql, "The decision in one round trip").
///
/// SwipeStore's `recordStepByStep` is the one definition of what a decision
/// does; run statement by statement it costs PostgreSQL a dozen round trips
/// (keys, two locks, the rules, the quota, the block, the earlier decision,
/// the insert and its check, the likers' cursors, the other side, the match,
/// the name, the transaction id). Here the same steps run on the server, in
/// the same order, as `swipe_decide_2` (schema.postgres.sql, "The decision in
/// one round trip"): the write is BEGIN, that call, COMMIT. The function
/// returns an outcome; this file words it as the Swift rules do (the same
/// `StoreError`s, through the same helpers) and stamps a match's deadline with
/// the Swift rule (`stampDeadline`) when rule match-expiry is set.
///
/// `DecisionModelTests` holds the two paths to each other: the same random
/// decisions, undos, blocks and quota settings on SQLite and on PostgreSQL
/// give the same answers, refusals word for word, and the same matches.
///
/// The function returns its transaction id, so that a COMMIT whose answer is
/// lost is looked up (`PostgresStore.write`) without another round trip
/// before it. A database where the function could not be installed (a role
/// without CREATE) takes the step-by-step path.
extension PostgresStore {
    public func record(
        viewer: String, profile: String, decision: Decision, via: Via, at date: Date?
    ) throws -> RecordedDecision {
        guard decidesOnServer else {
            return try recordStepByStep(viewer: viewer, profile: profile, decision: decision, via: via, at: date)
        }
        try requireHoldable(viewer, profile)
        let decidedAt = Timestamp.string(from: date ?? Date())
        let arguments: [SQLValue] = [
            .text(viewer), .text(profile), .text(decision.rawValue), .text(via.rawValue), .text(decidedAt),
            .text(Self.quotaWindowStart(decidedAt: decidedAt)),
        ]
        return try write {
            guard let answer = try executor.first(DecideAnswer.self, Self.decideSQL, arguments) else {
                throw StoreError.notStored(table: "decisions", what: "swipe_decide_2 returned no row")
            }
            return try answer.outcome(
                viewer: viewer, profile: profile, decision: decision, via: via, decidedAt: decidedAt, store: self)
        }
    }

    static let decideSQL = "SELECT * FROM swipe_decide_2($1, $2, $3, $4, $5, $6)"

    /// Refuses, before anything is sent, an id PostgreSQL's text cannot hold
    /// (a NUL): it names no profile. The server-side functions' callers
    /// (decide, undo, send) check their two ids here, as `profileKey` does.
    func requireHoldable(_ viewer: String, _ profile: String) throws {
        for id in [viewer, profile] where !executor.dialect.canHold(id) { throw StoreError.unknownProfile(id) }
    }
}

/// The row `swipe_decide_2` returns, by column name.
struct DecideAnswer: FetchableRow {
    var outcome: DecideOutcome
    var transactionID: Int64?
    var viewerKey: Int?
    var profileKey: Int?
    var earlier: String?
    var earlierAt: String?
    var quotaLimit: Int?
    var nthAt: String?
    var madeAt: String?
    var matchName: String?
    var expiry: String?

    init(row: some SQLRow) throws {
        outcome = try DecideOutcome(answered: row.text("outcome"))
        transactionID = try row.optionalInt("xact").map(Int64.init)
        viewerKey = try row.optionalInt("viewer_key")
        profileKey = try row.optionalInt("profile_key")
        earlier = try row.optionalText("earlier")
        earlierAt = try row.optionalText("earlier_at")
        quotaLimit = try row.optionalInt("quota_limit")
        nthAt = try row.optionalText("nth_at")
        madeAt = try row.optionalText("made_at")
        matchName = try row.optionalText("match_name")
        expiry = try row.optionalText("expiry")
    }

    /// The decision as recorded, or the refusal the step-by-step rules throw for the same case.
    func outcome(
        viewer: String, profile: String, decision: Decision, via: Via, decidedAt: String, store: PostgresStore
    ) throws -> RecordedDecision {
        switch outcome {
        case .unknownViewer: throw StoreError.unknownProfile(viewer)
        case .unknownProfile: throw StoreError.unknownProfile(profile)
        case .quota:
            throw PostgresStore.quotaRefusal(decision, limit: quotaLimit ?? 0, nth: nthAt, decidedAt: decidedAt)
        case .isSelf: throw StoreError.selfDecision(viewer)
        case .suspended: throw StoreError.suspended(viewer: viewer, reason: earlier ?? "", until: earlierAt)
        case .blocked: throw StoreError.blocked(viewer: viewer, profile: profile)
        case .decided:
            let text = earlier ?? ""
            guard let earlierDecision = Decision(rawValue: text) else {
                throw StoreError.undecodable(table: "decisions", key: viewerKey ?? 0, column: "decision", value: text)
            }
            throw StoreError.alreadyDecided(
                viewer: viewer, profile: profile, decision: earlierDecision, decidedAt: earlierAt ?? "")
        case .notStored:
            throw PostgresStore.notStored(viewer: viewer, profile: profile, decision: decision, decidedAt: decidedAt)
        case .recorded, .missed:
            store.knownTransactionID = transactionID
            var recorded = RecordedDecision(
                viewer: viewer, profile: profile, decision: decision, via: via, decidedAt: decidedAt,
                match: nil, missedMatch: outcome == .missed)
            if let madeAt {
                recorded.match = Match(profile: profile, name: matchName ?? "", matchedAt: madeAt)
                let rules = Rules(settings: expiry.map { [("rule.match-expiry", $0)] } ?? [])
                if rules.matchExpiryHours != nil, let viewerKey, let profileKey {
                    try store.stampDeadline(viewerKey, profileKey, matchedAt: madeAt, rules: rules)
                }
            }
            return recorded
        }
    }
}
