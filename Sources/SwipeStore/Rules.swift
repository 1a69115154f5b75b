import SwipeCore

/// What `undo` may take back (README "Discovery", rules).
public enum RewindRule: String, CaseIterable, Hashable, Sendable {
    /// As far back as the history goes (the default).
    case any
    /// Only the viewer's most recent decision, once.
    case last
    /// Only hates.
    case passes
    /// Nothing.
    case off
}

/// The database-wide rules, as stored in `settings`.
public struct Rules: Hashable, Sendable {
    /// Likes a viewer may make in any 24 hours; nil is no limit.
    public var likesPerDay: Int?
    /// Superlikes a viewer may make in any 24 hours; nil is no limit.
    public var superlikesPerDay: Int?
    public var rewind: RewindRule
    /// Conversations (Documentation/REPL.md, "Conversations"), Bumble's rule: in a match where exactly
    /// one of the two has this gender (compared trimmed and lower-cased),
    /// that one sends the first message. nil: anyone writes first.
    public var firstMove: String?
    /// Hours a new match has for its first message: a match made while
    /// this is set carries its deadline (`matches.expires_at`) and, with no
    /// message by then, is expired for good. nil: matches never expire.
    public var matchExpiryHours: Int?
    /// Conversations a person may open (send the first message of) in any
    /// 24 hours; nil is no limit.
    public var firstMessagesPerDay: Int?
    /// Days a report's evidence (the reported profile and the pair's last
    /// messages) is kept after the report, whoever is erased meanwhile
    /// (Documentation/Safety.md). 90 unless set; 0 keeps it until the next
    /// report or erase.
    public var evidenceDays: Int
    /// Messages a sender may send to one person in any minute
    /// (Documentation/Moderation.md, abuse limits); 10 unless set.
    public var messagesPerMinute: Int

    /// `messagesPerMinute` when no rule says otherwise.
    public static let defaultMessagesPerMinute = 10

    /// A first message sent word for word to this many people within an hour
    /// flags its sender into the moderators' queue (the sends still go).
    public static let copiedMessageFlag = 5

    /// `evidenceDays` when no rule says otherwise.
    public static let defaultEvidenceDays = 90

    public init(
        likesPerDay: Int? = nil, superlikesPerDay: Int? = nil, rewind: RewindRule = .any, firstMove: String? = nil,
        matchExpiryHours: Int? = nil, firstMessagesPerDay: Int? = nil, evidenceDays: Int = Rules.defaultEvidenceDays,
        messagesPerMinute: Int = Rules.defaultMessagesPerMinute
    ) {
        self.messagesPerMinute = messagesPerMinute
        self.evidenceDays = evidenceDays
        self.likesPerDay = likesPerDay
        self.superlikesPerDay = superlikesPerDay
        self.rewind = rewind
        self.firstMove = firstMove
        self.matchExpiryHours = matchExpiryHours
        self.firstMessagesPerDay = firstMessagesPerDay
    }

    /// The rule names, as `swipe rules set` takes them, in the order printed.
    public static let names = [
        "likes-per-day", "superlikes-per-day", "rewind", "first-move", "match-expiry", "first-messages-per-day",
        "evidence-days", "messages-per-minute",
    ]

    /// The longest message, in characters (Unicode code points, as SQL's
    /// `length` counts them on both backends). A fixed rule, not a setting.
    public static let messageLength = 2000

    /// Each rule's name and value as printed (`off` for no limit).
    public var entries: [(name: String, value: String)] {
        [
            ("likes-per-day", likesPerDay.map(String.init) ?? "off"),
            ("superlikes-per-day", superlikesPerDay.map(String.init) ?? "off"),
            ("rewind", rewind.rawValue),
            ("first-move", firstMove ?? "anyone"),
            ("match-expiry", matchExpiryHours.map(String.init) ?? "off"),
            ("first-messages-per-day", firstMessagesPerDay.map(String.init) ?? "off"),
            ("evidence-days", String(evidenceDays)),
            ("messages-per-minute", String(messagesPerMinute)),
        ]
    }

    /// The daily limit for `decision`, nil when none (hate never has one).
    public func limit(for decision: Decision) -> Int? {
        switch decision {
        case .like: likesPerDay
        case .superlike: superlikesPerDay
        case .hate: nil
        }
    }
}

extension Rules {
    /// The rules as stored: `settings` rows named `rule.NAME`; a missing
    /// row is the default, an unreadable value counts as the default too.
    public init(settings: [(name: String, value: String)]) {
        self.init()
        for (name, value) in settings {
            switch name {
            case "rule.likes-per-day": likesPerDay = Int(value)
            case "rule.superlikes-per-day": superlikesPerDay = Int(value)
            case "rule.rewind": rewind = RewindRule(rawValue: value) ?? .any
            case "rule.first-move": firstMove = value.isEmpty ? nil : value
            case "rule.match-expiry": matchExpiryHours = Int(value)
            case "rule.first-messages-per-day": firstMessagesPerDay = Int(value)
            case "rule.evidence-days": evidenceDays = Int(value) ?? Rules.defaultEvidenceDays
            case "rule.messages-per-minute":
                messagesPerMinute =
                    Int(value).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
                    ?? Rules.defaultMessagesPerMinute
            default: break
            }
        }
    }

    /// The `settings` row that `swipe rules set NAME VALUE` stores: a count
    /// from 0 to 1000000 or `off` for the daily limits, any|last|passes|off
    /// for rewind, anyone or a gender for first-move, hours from 1 to 8760
    /// or `off` for match-expiry. A nil value means the default: delete the row.
    ///
    /// - Throws: `StoreError.invalidValue`.
    public static func setting(_ name: String, _ value: String) throws -> (name: String, value: String?) {
        let stored: String?
        switch name {
        case "likes-per-day", "superlikes-per-day", "first-messages-per-day":
            if value.lowercased() == "off" {
                stored = nil
            } else if let count = Int(value), (0...1_000_000).contains(count) {
                stored = String(count)
            } else {
                throw StoreError.invalidValue(
                    name: name, value: value, expected: "a whole number from 0 to 1000000, or off")
            }
        case "rewind":
            guard let rule = RewindRule(rawValue: value.lowercased()) else {
                throw StoreError.invalidValue(name: name, value: value, expected: "any, last, passes or off")
            }
            stored = rule == .any ? nil : rule.rawValue
        case "first-move":
            let gender = value.trimmed(newlines: true).lowercased()
            if gender == "anyone" || gender == "any" {
                stored = nil
            } else if !gender.isEmpty, gender.count <= 50, !gender.contains(";"),
                gender.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
            {
                stored = gender
            } else {
                throw StoreError.invalidValue(
                    name: name, value: value, expected: "anyone, or a gender as profiles spell it (e.g. f)")
            }
        case "match-expiry":
            if value.lowercased() == "off" {
                stored = nil
            } else if let hours = Int(value), (1...8760).contains(hours) {
                stored = String(hours)
            } else {
                throw StoreError.invalidValue(
                    name: name, value: value, expected: "a whole number of hours from 1 to 8760, or off")
            }
        case "evidence-days":
            guard let days = Int(value), (0...3650).contains(days) else {
                throw StoreError.invalidValue(
                    name: name, value: value, expected: "a whole number of days from 0 to 3650 (default 90)")
            }
            stored = days == Rules.defaultEvidenceDays ? nil : String(days)
        case "messages-per-minute":
            guard let count = Int(value), (1...1_000_000).contains(count) else {
                throw StoreError.invalidValue(
                    name: name, value: value, expected: "a whole number from 1 to 1000000 (default 10)")
            }
            stored = count == Rules.defaultMessagesPerMinute ? nil : String(count)
        default:
            throw StoreError.invalidValue(
                name: "rule", value: name,
                expected: Rules.names.dropLast().joined(separator: ", ") + " or " + Rules.names.last!)
        }
        return ("rule." + name, stored)
    }
}

extension RewindRule {
    /// Refuses the undo of a standing `decision` when this rule forbids it:
    /// `isNewest` (asked only under `last`) says whether it is the viewer's
    /// most recent decision. Every backend asks the same question the same way.
    ///
    /// - Throws: `StoreError.rewindRefused`.
    public func check(undoing decision: Decision, isNewest: () throws -> Bool) throws {
        switch self {
        case .any: return
        case .off: break
        case .passes: if decision == .hate { return }
        case .last: if try isNewest() { return }
        }
        throw StoreError.rewindRefused(rule: self, decision: decision)
    }
}
