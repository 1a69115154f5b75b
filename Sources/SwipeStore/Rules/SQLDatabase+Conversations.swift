import Foundation

/// Conversations (Documentation/REPL.md, "Conversations"), written once for every backend: who may
/// write to whom and when, the store's order of each conversation, and
/// exactly-once sends by client id.
///
/// A conversation is a match's pair (low key, high key, as in `matches`).
/// Every send takes the sender's lock, then the pair's (`SQLExecutor`), as
/// a decision does: so a retry racing its first attempt finds its row, the
/// next `seq` is the only one, and a block or unmatch is either before the
/// send (refused) or after it (the message stands, then the conversation ends).
extension SQLDatabase {
    /// Stores `send.text` from `send.viewer` to `send.profile`, or returns
    /// the message an earlier attempt with the same client id stored (any
    /// time later, from any connection: the retry of a send whose answer
    /// was lost), never a second row. A retry is answered before any rule
    /// is asked again: what was stored stays acknowledged.
    ///
    /// The rules, in the order they are asked: the text (not empty, at most
    /// `Rules.messageLength` characters, no NUL); neither person suspended;
    /// a standing match; messages-per-minute to this person; for the
    /// conversation's first message, the match's deadline (match-expiry),
    /// who writes first (first-move) and the sender's first messages in the
    /// last 24 hours (first-messages-per-day). A first message copied word
    /// for word to `Rules.copiedMessageFlag` people in an hour flags its
    /// sender for the moderators (`flagCopies`) and still goes.
    public func send(_ send: MessageSend) throws -> SentMessage {
        try sendStepByStep(send)
    }

    /// `send` as a sequence of statements: the one definition of what a
    /// send does, and its path on SQLite (where a statement costs no round
    /// trip). PostgreSQL runs the same steps, in the same order, as one
    /// server-side function (`PostgresStore.send`, `swipe_send_2` in
    /// schema.postgres.sql), held to this by `SendModelTests`; it comes here
    /// when that function cannot be installed.
    public func sendStepByStep(_ send: MessageSend) throws -> SentMessage {
        let (text, now) = try Self.checkedSend(send)
        return try write { try sendChecked(send, text: text, at: now) }
    }

    /// The checks a send makes before it reaches the store: the text as
    /// stored (`checkedText`), the client id, and the moment it is sent.
    package static func checkedSend(_ send: MessageSend) throws -> (text: String, now: String) {
        let text = try checkedText(send.text)
        try checkClientID(send.clientID)
        return (text, Timestamp.string(from: send.date ?? Date()))
    }

    /// The send inside a write transaction already open, after
    /// `checkedSend`: the locks, the retry, the rules, the insert.
    package func sendChecked(_ send: MessageSend, text: String, at now: String) throws -> SentMessage {
        let (me, them) = try lockedPair(send.viewer, send.profile, action: "message")
        if let stored = try executor.first(
            StoredMessage.self, Self.messageByClientSQL, [.int(me), .text(send.clientID)])
        {
            return try Self.retried(stored, recipient: them, text: text, clientID: send.clientID)
        }
        try checkSuspensions(actor: (me, send.viewer), other: (them, send.profile), at: now)
        let (low, high) = (min(me, them), max(me, them))
        let lastSeq = try checkConversation(me: me, them: them, profile: send.profile, at: now)
        let rules = try readRules()
        try checkMessageRate(me: me, them: them, profile: send.profile, at: now, rules: rules)
        if lastSeq == 0 {
            if let deadline = try deadline(low, high), deadline <= now {
                throw StoreError.messageRefused(.expired(profile: send.profile, at: deadline))
            }
            try checkFirstMove(me: me, them: them, rules: rules)
            try checkFirstMessages(sender: me, at: now, rules: rules)
        }
        let seq = lastSeq + 1
        let key = try executor.insertReturningKey(
            """
            INSERT INTO messages (low, high, seq, sender, recipient, client_id, body, sent_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [.int(low), .int(high), .int(seq), .int(me), .int(them), .text(send.clientID), .text(text), .text(now)])
        let stored = try key.flatMap { try executor.first(StoredMessage.self, Self.messageByKeySQL, [.int($0)]) }
        if lastSeq == 0 { try flagCopies(sender: me, text: text, at: now) }
        return try Self.sent(stored, seq: seq, send, text: text, at: now)
    }

    /// The answer to a send whose client id names a stored message: that
    /// message, a retry, when it went to the same person with the same
    /// text; else the refusal of a reused client id.
    package static func retried(_ stored: StoredMessage, recipient: Int, text: String, clientID: String) throws
        -> SentMessage
    {
        guard stored.recipientKey == recipient, stored.message.text == text else {
            throw StoreError.messageRefused(.clientIDReused(clientID))
        }
        return SentMessage(message: stored.message, isRetry: true)
    }

    /// The message just inserted as read back (`stored`), checked to be
    /// what was written: its place `seq`, its text and its moment.
    package static func sent(_ stored: StoredMessage?, seq: Int, _ send: MessageSend, text: String, at now: String)
        throws -> SentMessage
    {
        guard let stored, stored.message.seq == seq, stored.message.text == text, stored.message.sentAt == now else {
            throw StoreError.notStored(
                table: "messages", what: "\(send.viewer)'s message \(send.clientID) to \(send.profile) at \(now)")
        }
        return SentMessage(message: stored.message, isRetry: false)
    }

    /// The refusal of a first message over rule first-messages-per-day:
    /// it frees 24 hours after `nth` (the oldest first message that
    /// counts), or never sooner than now when the limit is 0 or less.
    package static func firstMessagesRefusal(limit: Int, nth: String?, at now: String) -> StoreError {
        let freesAt =
            nth.flatMap(Timestamp.date(from:)).map { Timestamp.string(from: $0.addingTimeInterval(86_400)) } ?? now
        return .messageRefused(.firstMessagesPerDay(limit: limit, freesAt: freesAt))
    }

    /// The conversation of `query.viewer` with `query.profile`, oldest
    /// first; when `query.markRead`, every message to the viewer not yet
    /// read is stamped read first (in one write).
    public func messages(_ query: MessageQuery) throws -> [Message] {
        let now = Timestamp.string(from: query.date ?? Date())
        let body = { () throws -> [Message] in
            let me = try self.requireKey(query.viewer), them = try self.requireKey(query.profile)
            guard me != them else { throw StoreError.selfAction(query.viewer, action: "message") }
            let (low, high) = (min(me, them), max(me, them))
            _ = try self.checkConversation(me: me, them: them, profile: query.profile, at: now)
            if query.markRead {
                try self.executor.run(
                    """
                    UPDATE messages SET read_at = $4
                    WHERE recipient = $3 AND low = $1 AND high = $2 AND read_at IS NULL
                    """, [.int(low), .int(high), .int(me), .text(now)])
            }
            // The last N: the newest N by seq, put back in order.
            let rows = try self.executor.all(
                StoredMessage.self, Self.conversationSQL,
                [.int(low), .int(high), .int(query.afterSeq ?? 0), .int(query.last ?? Int.max)])
            return rows.reversed().map(\.message)
        }
        return query.markRead ? try write(body) : try read(body)
    }

    /// The viewer's standing matches (expired ones included, marked so),
    /// each with its newest message and the count of messages to the viewer
    /// not yet read, newest activity (last message, else the match) first.
    public func inbox(viewer: String, at date: Date?) throws -> [ConversationSummary] {
        let now = Timestamp.string(from: date ?? Date())
        return try read {
            let me = try requireKey(viewer)
            return try executor.all(
                """
                SELECT p.id AS other_id, p.name AS other_name, c.matched_at, c.expires_at,
                       (SELECT count(*) FROM messages AS u
                        WHERE u.recipient = $1 AND u.low = c.low AND u.high = c.high AND u.read_at IS NULL) AS unread,
                       l.seq, l.body, l.client_id, l.sent_at, l.read_at, l.key, s.id AS sender_id, r.id AS recipient_id
                FROM (SELECT low, high, high AS other, matched_at, expires_at FROM matches
                      WHERE low = $1 AND unmatched_at IS NULL
                      UNION ALL
                      SELECT low, high, low AS other, matched_at, expires_at FROM matches
                      WHERE high = $1 AND unmatched_at IS NULL) AS c
                JOIN profiles AS p ON p.key = c.other AND \(Self.notSuspended("p.key", executor.dialect))
                LEFT JOIN messages AS l ON l.low = c.low AND l.high = c.high
                    AND l.seq = (SELECT max(x.seq) FROM messages AS x WHERE x.low = c.low AND x.high = c.high)
                LEFT JOIN profiles AS s ON s.key = l.sender
                LEFT JOIN profiles AS r ON r.key = l.recipient
                ORDER BY coalesce(l.sent_at, c.matched_at) DESC, p.key
                """, [.int(me)]
            ) { row in
                let last = try row.isNull("seq") ? nil : Message(row: row)
                let deadline = last == nil ? try row.optionalText("expires_at") : nil
                return ConversationSummary(
                    profile: try row.text("other_id"), name: try row.text("other_name"),
                    matchedAt: try row.text("matched_at"), last: last, unread: try row.int("unread"),
                    expiresAt: deadline, isExpired: deadline.map { $0 <= now } ?? false)
            }
        }
    }

    /// Refuses unless the two hold a standing match; returns the last `seq`
    /// of their conversation (0 before the first message).
    private func checkConversation(me: Int, them: Int, profile: String, at now: String) throws -> Int {
        let (low, high) = (min(me, them), max(me, them))
        let match = try executor.first(
            "SELECT unmatched_at FROM matches WHERE low = $1 AND high = $2", [.int(low), .int(high)]
        ) { row in try row.optionalText("unmatched_at") }
        guard let match else { throw StoreError.messageRefused(.notMatched(profile: profile)) }
        if let endedAt = match { throw StoreError.messageRefused(.ended(profile: profile, at: endedAt)) }
        // messages_order walked from its end: PostgreSQL's planner, on a
        // table it has not analysed since it grew, would read every row of
        // the conversation for max(seq).
        return try executor.first(
            "SELECT seq FROM messages WHERE low = $1 AND high = $2 ORDER BY seq DESC LIMIT 1", [.int(low), .int(high)]
        ) { try $0.int("seq") } ?? 0
    }

    /// The pair's deadline for a first message, if its match has one.
    private func deadline(_ low: Int, _ high: Int) throws -> String? {
        try executor.first("SELECT expires_at FROM matches WHERE low = $1 AND high = $2", [.int(low), .int(high)]) {
            try $0.optionalText("expires_at")
        } ?? nil
    }

    /// Rule first-move: in a pair where exactly one has the rule's gender,
    /// only that one sends the first message.
    private func checkFirstMove(me: Int, them: Int, rules: Rules) throws {
        guard let gender = rules.firstMove else { return }
        func has(_ key: Int) throws -> Bool {
            let stored =
                try executor.first("SELECT gender FROM profiles WHERE key = $1", [.int(key)]) {
                    try $0.optionalText("gender")
                } ?? nil
            return stored.map { $0.trimmed(newlines: true).lowercased() } == gender
        }
        let (mine, theirs) = (try has(me), try has(them))
        if theirs && !mine { throw StoreError.messageRefused(.firstMove(gender: gender)) }
    }

    /// The `$3 + 1`-th newest first message by sender `$1` sent after `$2`,
    /// if there are that many: `messages_first` walked from its newest end
    /// (as `quotaSQL` walks decisions).
    public static var firstMessagesSQL: String {
        """
        SELECT sent_at FROM messages
        WHERE sender = $1 AND seq = 1 AND sent_at > $2
        ORDER BY sent_at DESC LIMIT 1 OFFSET $3
        """
    }

    /// Rule first-messages-per-day: refuses a first message when the
    /// sender's first messages of the 24 hours before number the limit or
    /// more, saying when the oldest that counts leaves the window.
    private func checkFirstMessages(sender: Int, at now: String, rules: Rules) throws {
        guard let limit = rules.firstMessagesPerDay, let date = Timestamp.date(from: now) else { return }
        guard limit > 0 else { throw Self.firstMessagesRefusal(limit: 0, nth: nil, at: now) }
        let windowStart = Timestamp.string(from: date.addingTimeInterval(-86_400))
        guard
            let nth = try executor.first(
                Self.firstMessagesSQL, [.int(sender), .text(windowStart), .int(limit - 1)], { try $0.text("sent_at") })
        else { return }
        throw Self.firstMessagesRefusal(limit: limit, nth: nth, at: now)
    }

    /// Stamps a match just made with its deadline for a first message when
    /// rule match-expiry is on.
    package func stampDeadline(_ a: Int, _ b: Int, matchedAt: String, rules: Rules) throws {
        guard let hours = rules.matchExpiryHours, let matched = Timestamp.date(from: matchedAt) else { return }
        try executor.run(
            "UPDATE matches SET expires_at = $3 WHERE low = $1 AND high = $2",
            [
                .int(min(a, b)), .int(max(a, b)),
                .text(Timestamp.string(from: matched.addingTimeInterval(Double(hours) * 3600))),
            ])
    }

    /// The text as stored: trimmed of surrounding whitespace, refused when
    /// empty, too long or holding a NUL.
    static func checkedText(_ text: String) throws -> String {
        let trimmed = text.trimmed(newlines: true)
        if trimmed.isEmpty { throw StoreError.messageRefused(.empty) }
        if trimmed.unicodeScalars.contains("\0") { throw StoreError.messageRefused(.holdsNUL) }
        let length = trimmed.unicodeScalars.count
        if length > Rules.messageLength { throw StoreError.messageRefused(.tooLong(length: length)) }
        return trimmed
    }

    static func checkClientID(_ id: String) throws {
        guard (1...128).contains(id.unicodeScalars.count),
            id.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
        else { throw StoreError.messageRefused(.badClientID(id)) }
    }

    /// A message's columns, by name, with the two people's external ids.
    private static var messageSQL: String {
        """
        SELECT m.key, m.seq, m.recipient AS recipient_key, s.id AS sender_id, r.id AS recipient_id,
               m.body, m.client_id, m.sent_at, m.read_at
        FROM messages AS m JOIN profiles AS s ON s.key = m.sender JOIN profiles AS r ON r.key = m.recipient
        """
    }

    /// The message sender `$1` sent under client id `$2` (`messages_client`).
    static var messageByClientSQL: String { messageSQL + " WHERE m.sender = $1 AND m.client_id = $2" }

    /// The message with key `$1`.
    static var messageByKeySQL: String { messageSQL + " WHERE m.key = $1" }

    /// The newest `$4` messages of the pair `$1`, `$2` after seq `$3`, newest
    /// first (`messages_order` walked backwards).
    static var conversationSQL: String {
        messageSQL + " WHERE m.low = $1 AND m.high = $2 AND m.seq > $3 ORDER BY m.seq DESC LIMIT $4"
    }
}

/// A message row as the rules read it, with the recipient's key.
package struct StoredMessage: FetchableRow {
    package var message: Message
    package var recipientKey: Int

    package init(row: some SQLRow) throws {
        message = try Message(row: row)
        recipientKey = try row.int("recipient_key")
    }
}

extension Message: FetchableRow {
    /// Columns `seq`, `sender_id`, `recipient_id`, `body`, `client_id`, `sent_at`, `read_at`.
    public init(row: some SQLRow) throws {
        self.init(
            seq: try row.int("seq"), sender: try row.text("sender_id"), recipient: try row.text("recipient_id"),
            text: try row.text("body"), clientID: try row.text("client_id"), sentAt: try row.text("sent_at"),
            readAt: try row.optionalText("read_at"))
    }
}
