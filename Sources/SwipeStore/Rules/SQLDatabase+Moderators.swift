import Foundation
import SwipeCore

/// The moderators' tools (Documentation/Moderation.md), written once for
/// every backend: the role, the queue, suspensions, warnings, removing a
/// photo, resolving, and the append-only log that records each of them.
///
/// `moderator` names who acts: a profile holding the role, or nil for the
/// operator (whoever can open the database: `swipe moderate` without
/// `--as`). Every action is one write: its change and its log line commit
/// together or not at all.
extension SQLDatabase {
    /// Whether `id` holds the moderator role.
    public func isModerator(_ id: String) throws -> Bool {
        guard executor.dialect.canHold(id) else { return false }
        return try read { try moderatorKey(id) != nil }
    }

    /// Gives `id` the moderator role.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator` (for `moderator`),
    ///   `.invalidValue` when `id` already holds it.
    public func grantModerator(_ id: String, by moderator: String?, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try write {
            let by = try acting(moderator)
            let key = try requireKey(id)
            guard
                try executor.run(
                    "INSERT INTO moderators (profile, granted_at, granted_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    [.int(key), .text(now), .text(by)]) > 0
            else { throw StoreError.invalidValue(name: "grant", value: id, expected: "someone not yet a moderator") }
            try log(at: now, by: by, action: "grant", target: id, reason: "")
        }
    }

    /// Takes the moderator role from `id`.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator` (for `moderator`, or `id`).
    public func revokeModerator(_ id: String, by moderator: String?, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try write {
            let by = try acting(moderator)
            let key = try requireKey(id)
            guard try executor.run("DELETE FROM moderators WHERE profile = $1", [.int(key)]) > 0 else {
                throw StoreError.notModerator(id)
            }
            try log(at: now, by: by, action: "revoke", target: id, reason: "")
        }
    }

    /// Suspends `id` for `days` days, or for good when nil: every sign-in
    /// link of theirs made so far is void, and while it stands they cannot
    /// sign in, decide or send, are sent nothing, dealt to no one and listed
    /// to no one. A second ban replaces the first.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator`, `.selfAction`,
    ///   `.invalidValue` (no reason, a reason too long, days outside 1…36500).
    @discardableResult
    public func ban(_ id: String, reason: String, days: Int?, by moderator: String?, at date: Date?) throws
        -> Suspension
    {
        let moment = date ?? Date()
        let now = Timestamp.string(from: moment)
        let reason = try Self.moderationReason(reason)
        if let days, !(1...36_500).contains(days) {
            throw StoreError.invalidValue(
                name: "--days", value: String(days),
                expected: "a whole number of days from 1 to 36500, or none for good")
        }
        let endsAt = days.map { Timestamp.string(from: moment.addingTimeInterval(Double($0) * 86_400)) }
        return try write {
            let by = try acting(moderator)
            if by == id { throw StoreError.selfAction(id, action: "ban") }
            let key = try requireKey(id)
            try executor.run("DELETE FROM suspensions WHERE profile = $1", [.int(key)])
            try executor.run(
                "INSERT INTO suspensions (profile, reason, banned_at, ends_at, banned_by) VALUES ($1, $2, $3, $4, $5)",
                [.int(key), .text(reason), .text(now), .optionalText(endsAt), .text(by)])
            try raiseSignInGeneration(viewer: id)
            try log(
                at: now, by: by, action: "ban", target: id,
                reason: reason + (days.map { " (\($0) day" + ($0 == 1 ? ")" : "s)") } ?? " (for good)"))
            return Suspension(profile: id, reason: reason, bannedAt: now, endsAt: endsAt, bannedBy: by)
        }
    }

    /// Lifts `id`'s suspension. Their links stay void: they sign in anew.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator`,
    ///   `.invalidValue` when no suspension stands.
    public func unban(_ id: String, by moderator: String?, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        try write {
            let by = try acting(moderator)
            let key = try requireKey(id)
            guard try executor.run("DELETE FROM suspensions WHERE profile = $1", [.int(key)]) > 0 else {
                throw StoreError.invalidValue(name: "unban", value: id, expected: "someone suspended")
            }
            try log(at: now, by: by, action: "unban", target: id, reason: "")
        }
    }

    /// The suspension standing for `id` at `date` (now when nil), if any.
    public func suspension(of id: String, at date: Date?) throws -> Suspension? {
        guard executor.dialect.canHold(id) else { return nil }
        let now = Timestamp.string(from: date ?? Date())
        return try read {
            try executor.first(
                """
                SELECT s.reason, s.banned_at, s.ends_at, s.banned_by FROM suspensions AS s JOIN profiles AS p ON p.key = s.profile
                WHERE p.id = $1 AND (s.ends_at IS NULL OR s.ends_at > $2)
                """, [.text(id), .text(now)]
            ) {
                Suspension(
                    profile: id, reason: try $0.text("reason"), bannedAt: try $0.text("banned_at"),
                    endsAt: try $0.optionalText("ends_at"), bannedBy: try $0.text("banned_by"))
            }
        }
    }

    /// Warns `id`: shown to them at their next session until they acknowledge it.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator`, `.invalidValue`.
    @discardableResult
    public func warn(_ id: String, reason: String, by moderator: String?, at date: Date?) throws -> ModeratorWarning {
        let now = Timestamp.string(from: date ?? Date())
        let reason = try Self.moderationReason(reason)
        return try write {
            let by = try acting(moderator)
            let key = try requireKey(id)
            let number =
                try executor.insertReturningKey(
                    "INSERT INTO warnings (profile, reason, warned_at, warned_by) VALUES ($1, $2, $3, $4)",
                    [.int(key), .text(reason), .text(now), .text(by)]) ?? 0
            try log(at: now, by: by, action: "warn", target: id, reason: reason)
            return ModeratorWarning(number: number, reason: reason, warnedAt: now)
        }
    }

    /// `viewer`'s warnings not yet acknowledged, oldest first.
    public func pendingWarnings(viewer: String) throws -> [ModeratorWarning] {
        try read {
            try executor.all(
                """
                SELECT key, reason, warned_at FROM warnings
                WHERE profile = $1 AND acknowledged_at IS NULL ORDER BY key
                """, [.int(try requireKey(viewer))]
            ) {
                ModeratorWarning(
                    number: try $0.int("key"), reason: try $0.text("reason"), warnedAt: try $0.text("warned_at"))
            }
        }
    }

    /// Acknowledges every warning of `viewer`'s; returns how many there were.
    @discardableResult
    public func acknowledgeWarnings(viewer: String, at date: Date?) throws -> Int {
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            try executor.run(
                "UPDATE warnings SET acknowledged_at = $2 WHERE profile = $1 AND acknowledged_at IS NULL",
                [.int(try requireKey(viewer)), .text(now)])
        }
    }

    /// Removes photo `position` (1-based) of `id`'s, and its bytes when stored.
    ///
    /// - Throws: `StoreError.unknownProfile`, `.notModerator`, `.invalidValue`,
    ///   `.photoRefused(.noSuchPhoto)`.
    @discardableResult
    public func removePhoto(of id: String, position: Int, reason: String, by moderator: String?, at date: Date?)
        throws -> Profile
    {
        let now = Timestamp.string(from: date ?? Date())
        let reason = try Self.moderationReason(reason)
        return try write {
            let by = try acting(moderator)
            let profile = try removePhotoLocked(viewer: id, position: position)
            try log(at: now, by: by, action: "remove-photo", target: "\(id) photo \(position)", reason: reason)
            return profile
        }
    }

    /// Resolves queue item `item` (a report's number, or `flag-N`) with `note`:
    /// it leaves the queue; `show` keeps saying how it was resolved.
    ///
    /// - Throws: `StoreError.unknownQueueItem`, `.notModerator`, `.invalidValue`.
    public func resolve(_ item: String, note: String, by moderator: String?, at date: Date?) throws {
        let now = Timestamp.string(from: date ?? Date())
        let note = try Self.moderationReason(note, name: "--note")
        try write {
            let by = try acting(moderator)
            let resolved: Int
            switch Self.queueKey(item) {
            case .report(let key):
                guard try executor.exists("SELECT 1 FROM reports WHERE key = $1", [.int(key)]) else {
                    throw StoreError.unknownQueueItem(item)
                }
                resolved = try executor.run(
                    """
                    INSERT INTO report_resolutions (report, resolved_at, resolved_by, note) VALUES ($1, $2, $3, $4)
                    ON CONFLICT DO NOTHING
                    """, [.int(key), .text(now), .text(by), .text(note)])
            case .flag(let key):
                guard try executor.exists("SELECT 1 FROM flags WHERE key = $1", [.int(key)]) else {
                    throw StoreError.unknownQueueItem(item)
                }
                resolved = try executor.run(
                    "UPDATE flags SET resolved_at = $2, resolved_by = $3, note = $4 WHERE key = $1 AND resolved_at IS NULL",
                    [.int(key), .text(now), .text(by), .text(note)])
            case nil:
                throw StoreError.unknownQueueItem(item)
            }
            guard resolved > 0 else {
                throw StoreError.invalidValue(name: "resolve", value: item, expected: "an item still open in the queue")
            }
            try log(at: now, by: by, action: "resolve", target: item, reason: note)
        }
    }

    /// The queue: open reports and open flags, oldest first, each with the
    /// count of open reports about its person, their open flags, and
    /// whether they are suspended now.
    public func moderationQueue(by moderator: String?) throws -> [QueueItem] {
        let now = Timestamp.string(from: Date())
        return try read {
            _ = try acting(moderator)
            var items = try executor.all(
                """
                SELECT r.key, a.id AS reporter, b.id AS reported, r.reason, r.reported_at, r.reported AS about
                FROM reports AS r JOIN profiles AS a ON a.key = r.reporter JOIN profiles AS b ON b.key = r.reported
                WHERE NOT EXISTS (SELECT 1 FROM report_resolutions AS x WHERE x.report = r.key)
                ORDER BY r.reported_at, r.key
                """, []
            ) { row in
                (
                    about: try row.int("about"),
                    item: QueueItem(
                        item: String(try row.int("key")), kind: "report", profile: try row.text("reported"),
                        reporter: try row.text("reporter"), reason: try row.text("reason"),
                        at: try row.text("reported_at"), reports: 0, flags: [], suspended: false)
                )
            }
            items += try executor.all(
                """
                SELECT f.key, p.id, f.count, f.sample, f.flagged_at, f.profile AS about
                FROM flags AS f JOIN profiles AS p ON p.key = f.profile
                WHERE f.resolved_at IS NULL ORDER BY f.flagged_at, f.key
                """, []
            ) { row in
                (
                    about: try row.int("about"),
                    item: QueueItem(
                        item: "flag-" + String(try row.int("key")), kind: "flag", profile: try row.text("id"),
                        reporter: nil,
                        reason: Self.flagWords(count: try row.int("count"), sample: try row.text("sample")),
                        at: try row.text("flagged_at"), reports: 0, flags: [], suspended: false)
                )
            }
            // Each person's open reports and flags, counted once (not per
            // item: a queue of n items about one person is n, not n²), and
            // whether they are suspended, read once per person.
            var reports: [Int: Int] = [:]
            var flags: [Int: [String]] = [:]
            for (about, item) in items {
                if item.kind == "report" {
                    reports[about, default: 0] += 1
                } else {
                    flags[about, default: []].append(item.reason)
                }
            }
            var suspended: [Int: Bool] = [:]
            var result: [QueueItem] = []
            for (about, item) in items.sorted(by: { ($0.item.at, $0.item.kind) < ($1.item.at, $1.item.kind) }) {
                var item = item
                item.reports = reports[about] ?? 0
                item.flags = flags[about] ?? []
                if suspended[about] == nil { suspended[about] = try standingSuspension(key: about, at: now) != nil }
                item.suspended = suspended[about]!
                result.append(item)
            }
            return result
        }
    }

    /// Queue item `item` with its evidence, open or resolved.
    ///
    /// - Throws: `StoreError.unknownQueueItem`, `.notModerator`.
    public func queueEvidence(_ item: String, by moderator: String?) throws -> QueueEvidence {
        let now = Timestamp.string(from: Date())
        return try read {
            _ = try acting(moderator)
            switch Self.queueKey(item) {
            case .report(let key):
                guard
                    let (about, report, resolution) = try executor.first(
                        """
                        SELECT r.reported AS about, a.id AS reporter, b.id AS reported, r.reason, r.reported_at,
                               x.resolved_at, x.resolved_by, x.note
                        FROM reports AS r JOIN profiles AS a ON a.key = r.reporter JOIN profiles AS b ON b.key = r.reported
                        LEFT JOIN report_resolutions AS x ON x.report = r.key
                        WHERE r.key = $1
                        """, [.int(key)],
                        { row in
                            (
                                try row.int("about"), try Report(row: row),
                                (
                                    try row.optionalText("resolved_at"), try row.optionalText("resolved_by"),
                                    try row.optionalText("note")
                                )
                            )
                        })
                else { throw StoreError.unknownQueueItem(item) }
                let evidence = try storedEvidence().first(where: { $0.evidence.belongs(to: report) })?.evidence
                let open =
                    try executor.first(
                        """
                        SELECT count(*) AS n FROM reports AS r
                        WHERE r.reported = $1 AND NOT EXISTS (SELECT 1 FROM report_resolutions AS x WHERE x.report = r.key)
                        """, [.int(about)]
                    ) { try $0.int("n") } ?? 0
                var result = QueueEvidence(
                    item: QueueItem(
                        item: item, kind: "report", profile: report.reported, reporter: report.reporter,
                        reason: report.reason, at: report.reportedAt, reports: open, flags: try openFlags(about),
                        suspended: try standingSuspension(key: about, at: now) != nil),
                    name: evidence?.name, bio: evidence?.bio, photos: evidence?.photos ?? [],
                    messages: try evidence.map { Array($0.transcript.suffix(Report.transcriptLength)) }
                        ?? transcriptLocked(of: report, limit: Report.transcriptLength))
                (result.resolvedAt, result.resolvedBy, result.note) = resolution
                return result
            case .flag(let key):
                guard
                    let (about, flagged) = try executor.first(
                        """
                        SELECT f.profile AS about, p.id, p.name, p.bio, f.count, f.sample, f.flagged_at,
                               f.resolved_at, f.resolved_by, f.note
                        FROM flags AS f JOIN profiles AS p ON p.key = f.profile WHERE f.key = $1
                        """, [.int(key)],
                        { row in
                            (
                                try row.int("about"),
                                (
                                    id: try row.text("id"), name: try row.text("name"),
                                    bio: try row.optionalText("bio"),
                                    words: Self.flagWords(count: try row.int("count"), sample: try row.text("sample")),
                                    at: try row.text("flagged_at"), resolvedAt: try row.optionalText("resolved_at"),
                                    resolvedBy: try row.optionalText("resolved_by"), note: try row.optionalText("note")
                                )
                            )
                        })
                else { throw StoreError.unknownQueueItem(item) }
                var result = QueueEvidence(
                    item: QueueItem(
                        item: item, kind: "flag", profile: flagged.id, reporter: nil, reason: flagged.words,
                        at: flagged.at, reports: 0, flags: try openFlags(about),
                        suspended: try standingSuspension(key: about, at: now) != nil),
                    name: flagged.name, bio: flagged.bio, photos: [], messages: [])
                (result.resolvedAt, result.resolvedBy, result.note) = (
                    flagged.resolvedAt, flagged.resolvedBy, flagged.note
                )
                return result
            case nil:
                throw StoreError.unknownQueueItem(item)
            }
        }
    }

    /// Every moderator action, oldest first: the append-only log.
    public func moderationLog() throws -> [ModerationLogEntry] {
        try read {
            try executor.all(
                "SELECT seq, at, moderator, action, target, reason FROM moderation_log ORDER BY seq", []
            ) {
                ModerationLogEntry(
                    seq: try $0.int("seq"), at: try $0.text("at"), moderator: try $0.text("moderator"),
                    action: try $0.text("action"), target: try $0.text("target"), reason: try $0.text("reason"))
            }
        }
    }

    // MARK: - Helpers

    /// The name the log gives `moderator` (inside a transaction): nil is the
    /// operator; anyone else must hold the role.
    private func acting(_ moderator: String?) throws -> String {
        guard let moderator else { return ModerationLogEntry.operatorName }
        guard executor.dialect.canHold(moderator), try moderatorKey(moderator) != nil else {
            throw StoreError.notModerator(moderator)
        }
        return moderator
    }

    private func moderatorKey(_ id: String) throws -> Int? {
        try executor.first(
            "SELECT m.profile FROM moderators AS m JOIN profiles AS p ON p.key = m.profile WHERE p.id = $1",
            [.text(id)]
        ) { try $0.int("profile") }
    }

    private func log(at now: String, by moderator: String, action: String, target: String, reason: String) throws {
        try executor.run(
            "INSERT INTO moderation_log (at, moderator, action, target, reason) VALUES ($1, $2, $3, $4, $5)",
            [.text(now), .text(moderator), .text(action), .text(target), .text(reason)])
    }

    private func openFlags(_ about: Int) throws -> [String] {
        try executor.all(
            "SELECT count, sample FROM flags WHERE profile = $1 AND resolved_at IS NULL ORDER BY key", [.int(about)]
        ) { Self.flagWords(count: try $0.int("count"), sample: try $0.text("sample")) }
    }

    /// A flag in words.
    static func flagWords(count: Int, sample: String) -> String {
        "copied a first message to \(count) people within an hour: \(sample)"
    }

    private static func queueKey(_ item: String) -> QueueKey? {
        if item.hasPrefix("flag-"), let key = Int(item.dropFirst(5)), key > 0 { return .flag(key) }
        if let key = Int(item), key > 0, !item.hasPrefix("+") { return .report(key) }
        return nil
    }

    /// A ban's, warning's, photo removal's or resolution's reason: trimmed,
    /// not empty, at most `TextLimits.reason` characters.
    static func moderationReason(_ text: String, name: String = "--reason") throws -> String {
        let reason = text.trimmed(newlines: true)
        guard !reason.isEmpty else {
            throw StoreError.invalidValue(name: name, value: text, expected: "some words saying why")
        }
        guard !TextLimits.exceeds(reason, TextLimits.reason) else {
            throw StoreError.invalidValue(
                name: name, value: String(reason.prefix(40)) + "…",
                expected: "at most \(TextLimits.reason.formatted(grouping: ",")) characters")
        }
        guard !reason.unicodeScalars.contains("\0") else {
            throw StoreError.invalidValue(name: name, value: reason, expected: "text without a NUL character")
        }
        return reason
    }
}

/// A queue item's number: a report's (`12`), or a flag's (`flag-3`).
private enum QueueKey {
    case report(Int)
    case flag(Int)
}
