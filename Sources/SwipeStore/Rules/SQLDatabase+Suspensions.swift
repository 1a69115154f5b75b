import Foundation

/// What a suspension and the abuse limits do to decisions and messages
/// (Documentation/Moderation.md), written once for every backend. The
/// server-side functions `swipe_decide_2` and `swipe_send_2` ask the same
/// questions in the same order (schema.postgres.sql).
extension SQLDatabase {
    /// A person's standing suspension at `now`: its reason and its end (nil:
    /// for good), or nil when none stands.
    func standingSuspension(key: Int, at now: String) throws -> (reason: String, endsAt: String?)? {
        try executor.first(
            "SELECT reason, ends_at FROM suspensions WHERE profile = $1 AND (ends_at IS NULL OR ends_at > $2)",
            [.int(key), .text(now)]
        ) { (try $0.text("reason"), try $0.optionalText("ends_at")) }
    }

    /// Refuses an act of a suspended `actor` (`StoreError.suspended`), and
    /// one towards a suspended `other`, answered as an id that never existed.
    func checkSuspensions(actor: (key: Int, id: String), other: (key: Int, id: String), at now: String) throws {
        if let (reason, endsAt) = try standingSuspension(key: actor.key, at: now) {
            throw StoreError.suspended(viewer: actor.id, reason: reason, until: endsAt)
        }
        if try standingSuspension(key: other.key, at: now) != nil { throw StoreError.unknownProfile(other.id) }
    }

    /// `p.key` (or `column`) names nobody suspended now: the condition every
    /// list and the feed add, so a suspended person is dealt to no one and
    /// listed to no one (their own lists still show others).
    package static func notSuspended(_ column: String, _ dialect: SQLDialect) -> String {
        """
        NOT EXISTS (SELECT 1 FROM suspensions AS sus
                    WHERE sus.profile = \(column) AND (sus.ends_at IS NULL OR sus.ends_at > \(dialect.now)))
        """
    }

    /// The stored time `seconds` before `now` (a window's start).
    package static func timeBefore(_ now: String, seconds: Double) -> String {
        guard let date = Timestamp.date(from: now) else { return now }
        return Timestamp.string(from: date.addingTimeInterval(-seconds))
    }

    /// Rule messages-per-minute: refuses a message when the sender's
    /// `limit`-th newest message in this conversation (messages_by_sender)
    /// was sent within the minute before `now`.
    func checkMessageRate(me: Int, them: Int, profile: String, at now: String, rules: Rules) throws {
        let limit = rules.messagesPerMinute
        guard
            let nth = try executor.first(
                """
                SELECT sent_at FROM messages WHERE low = $1 AND high = $2 AND sender = $3
                ORDER BY seq DESC LIMIT 1 OFFSET $4
                """, [.int(min(me, them)), .int(max(me, them)), .int(me), .int(limit - 1)],
                { try $0.text("sent_at") }),
            nth > Self.timeBefore(now, seconds: 60)
        else { return }
        throw Self.messageRateRefusal(profile: profile, limit: limit, nth: nth)
    }

    /// The refusal of rule messages-per-minute: it frees a minute after the
    /// limit's newest message (`nth`).
    package static func messageRateRefusal(profile: String, limit: Int, nth: String) -> StoreError {
        let freesAt = Timestamp.date(from: nth).map { Timestamp.string(from: $0.addingTimeInterval(60)) } ?? nth
        return .messageRefused(.tooFast(profile: profile, limit: limit, freesAt: freesAt))
    }

    /// The abuse limit on copies: after a first message, when the sender's
    /// first messages with the same text in the hour before number
    /// `Rules.copiedMessageFlag` or more, their open flag of kind
    /// `copied-message` holds that count (made, or raised). The send stands.
    func flagCopies(sender: Int, text: String, at now: String) throws {
        let copies =
            try executor.first(
                """
                SELECT count(*) AS n FROM messages
                WHERE sender = $1 AND seq = 1 AND sent_at > $2 AND body = $3
                """, [.int(sender), .text(Self.timeBefore(now, seconds: 3600)), .text(text)]
            ) { try $0.int("n") } ?? 0
        guard copies >= Rules.copiedMessageFlag else { return }
        try executor.run(
            """
            INSERT INTO flags (profile, kind, count, sample, flagged_at) VALUES ($1, 'copied-message', $2, $3, $4)
            ON CONFLICT (profile, kind) WHERE resolved_at IS NULL
            DO UPDATE SET count = CASE WHEN excluded.count > flags.count THEN excluded.count ELSE flags.count END,
                          sample = excluded.sample
            """, [.int(sender), .int(copies), .text(Self.sample(of: text)), .text(now)])
    }

    /// The first 200 characters of a flagged message, kept with the flag.
    static func sample(of text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(200))
        return String(scalars)
    }
}
