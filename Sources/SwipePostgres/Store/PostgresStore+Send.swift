import Foundation
import SwipeStore

/// A message send in one round trip (Documentation/PostgreSQL.md;
/// schema.postgres.sql, "The message send in one round trip").
///
/// SwipeStore's `sendStepByStep` is the one definition of what a send does;
/// run statement by statement it costs PostgreSQL about ten round trips (the
/// two keys, two locks, the retry's lookup, the match, the last seq, the
/// insert, its read back, the transaction id). Here the same steps run on
/// the server, in the same order, as `swipe_send_2`: the send is BEGIN (sent
/// with the call), that call, COMMIT. The function returns an outcome; this
/// file words it as the Swift rules do, through the same helpers
/// (`retried`, `sent`, `firstMessagesRefusal`: the same comparisons of text,
/// in Swift). Where SQL cannot compare text as Swift does (a gender or a
/// deadline beyond ASCII), the function writes nothing and answers `ask`:
/// that send takes the Swift steps in the same transaction.
///
/// `SendModelTests` holds the two paths to each other: the same random
/// sends, retries, unmatches, blocks and rules on SQLite and on PostgreSQL
/// give the same answers, refusals word for word, and the same rows.
///
/// The function returns its transaction id, so that a COMMIT whose answer is
/// lost is looked up (`PostgresStore.write`) without another round trip
/// before it. A database where the function could not be installed (a role
/// without CREATE) takes the step-by-step path.
extension PostgresStore {
    public func send(_ send: MessageSend) throws -> SentMessage {
        guard sendsOnServer else { return try sendStepByStep(send) }
        let (text, now) = try Self.checkedSend(send)
        try requireHoldable(send.viewer, send.profile)
        let windowStart = Self.quotaWindowStart(decidedAt: now)
        let arguments: [SQLValue] = [
            .text(send.viewer), .text(send.profile), .text(send.clientID), .text(text), .text(now), .text(windowStart),
            .text(Self.timeBefore(now, seconds: 60)), .text(Self.timeBefore(now, seconds: 3600)),
        ]
        return try write {
            guard let answer = try executor.first(SendAnswer.self, Self.sendSQL, arguments) else {
                throw StoreError.notStored(table: "messages", what: "swipe_send_2 returned no row")
            }
            if answer.outcome == .ask {
                sendsHandedBack += 1
                return try sendChecked(send, text: text, at: now)
            }
            sendsAnsweredOnServer += 1
            knownTransactionID = answer.transactionID
            return try answer.sent(send, text: text, at: now)
        }
    }

    static let sendSQL = "SELECT * FROM swipe_send_2($1, $2, $3, $4, $5, $6, $7, $8)"
}

/// The row `swipe_send_2` returns, by column name.
struct SendAnswer: FetchableRow {
    var outcome: SendOutcome
    var transactionID: Int64?
    var profileKey: Int?
    var expectedSeq: Int?
    /// The message stored: the retry's, or the one just inserted, read back.
    var stored: StoredMessage?
    var refusedAt: String?
    var firstMove: String?
    var quotaLimit: Int?
    var nthAt: String?
    /// A suspension's reason (the `body` column when the outcome is `suspended`).
    var reason: String?

    init(row: some SQLRow) throws {
        outcome = try SendOutcome(answered: row.text("outcome"))
        reason = try row.optionalText("body")
        transactionID = try row.optionalInt("xact").map(Int64.init)
        profileKey = try row.optionalInt("profile_key")
        expectedSeq = try row.optionalInt("expected_seq")
        stored = try row.isNull("key") ? nil : StoredMessage(row: row)
        refusedAt = try row.optionalText("refused_at")
        firstMove = try row.optionalText("first_move")
        quotaLimit = try row.optionalInt("quota_limit")
        nthAt = try row.optionalText("nth_at")
    }

    /// The message as sent, or the refusal the step-by-step rules throw for the same case.
    func sent(_ send: MessageSend, text: String, at now: String) throws -> SentMessage {
        switch outcome {
        case .unknownViewer: throw StoreError.unknownProfile(send.viewer)
        case .unknownProfile: throw StoreError.unknownProfile(send.profile)
        case .isSelf: throw StoreError.selfAction(send.viewer, action: "message")
        case .suspended: throw StoreError.suspended(viewer: send.viewer, reason: reason ?? "", until: refusedAt)
        case .tooFast:
            throw PostgresStore.messageRateRefusal(
                profile: send.profile, limit: quotaLimit ?? Rules.defaultMessagesPerMinute, nth: nthAt ?? now)
        case .stored:
            guard let stored, let profileKey else { break }
            return try PostgresStore.retried(stored, recipient: profileKey, text: text, clientID: send.clientID)
        case .notMatched: throw StoreError.messageRefused(.notMatched(profile: send.profile))
        case .ended: throw StoreError.messageRefused(.ended(profile: send.profile, at: refusedAt ?? ""))
        case .expired: throw StoreError.messageRefused(.expired(profile: send.profile, at: refusedAt ?? ""))
        case .firstMove: throw StoreError.messageRefused(.firstMove(gender: firstMove ?? ""))
        case .firstMessages:
            let limit = quotaLimit ?? 0
            throw PostgresStore.firstMessagesRefusal(limit: limit > 0 ? limit : 0, nth: nthAt, at: now)
        case .sent:
            return try PostgresStore.sent(stored, seq: expectedSeq ?? 0, send, text: text, at: now)
        case .ask: break
        }
        throw StoreError.notStored(table: "messages", what: "swipe_send_2 answered \(outcome.rawValue)")
    }
}
