import Foundation
import SwipeCore

/// A person's own data (Documentation/PersonalData.md): editing one's own
/// profile, taking everything the store holds about oneself away
/// (`export`), and leaving (`erase`). Its rules are `SQLDatabase`
/// extensions (`Rules/SQLDatabase+Me.swift`, `+Export`, `+Erase`), the same
/// on every backend.
public protocol SwipePersonalData: AnyObject {
    /// Changes one field of `viewer`'s own profile, checked as the importer
    /// checks that column, and returns the profile as stored. Counts as the
    /// viewer's activity (`rank_stats.last_active_at`).
    ///
    /// - Throws: `StoreError.unknownProfile`, `ProfileValueIssue`.
    @discardableResult
    func editProfile(viewer: String, _ edit: ProfileEdit, at date: Date?) throws -> Profile

    /// Changes `viewer`'s preferences or place as `setPreferences` does,
    /// as their own edit: it counts as their activity too.
    @discardableResult
    func editPreferences(viewer: String, _ change: PreferencesChange, at date: Date?) throws -> Profile

    /// Everything the store holds about `viewer`, section by section
    /// (`PersonalExport.sections`), read in one transaction.
    func exportPersonalData(viewer: String, at date: Date?) throws -> PersonalExport

    /// Removes `viewer` and every row naming them, in one transaction;
    /// reports about them keep their reason under a tombstone id.
    func erase(viewer: String, at date: Date?) throws -> Erasure

    /// After an erase committed elsewhere (a server's group commit): makes
    /// sure no byte of the erased rows stays in the backend's files
    /// (`SQLDatabase.scrubAfterErase`). Best effort; never throws.
    func scrubAfterErase()
}

/// One change to one's own profile, its value already checked
/// (`ProfileCheck`): what `me set` makes of `name`, `age`, `gender`, `city`,
/// `bio` and `interests`. Preferences and the place go through
/// `PreferencesChange`, as `prefs` does.
public enum ProfileEdit: Hashable, Sendable {
    case name(String)
    case age(Int)
    case gender(String?)
    case city(String?)
    case bio(String?)
    case interests([String])

    /// The stored column it writes.
    public var column: String {
        switch self {
        case .name: "name"
        case .age: "age"
        case .gender: "gender"
        case .city: "city"
        case .bio: "bio"
        case .interests: "interests"
        }
    }

    /// Whether others' feeds may judge the person differently after it
    /// (their age and gender are what preferences select on).
    var changesEligibility: Bool {
        switch self {
        case .age, .gender: true
        default: false
        }
    }

    /// Refuses what no backend stores, for a caller that built the value
    /// without `ProfileCheck` (a library caller).
    func validate() throws {
        switch self {
        case .name(let name): _ = try ProfileCheck.name(name)
        case .age(let age): _ = try ProfileCheck.age(String(age))
        case .interests(let items) where items.contains(where: { $0.trimmed().isEmpty }):
            throw ProfileValueIssue(
                column: "interests", value: items.joined(separator: ";"), message: "interests must not hold empty items"
            )
        case .interests(let items): try ProfileCheck.interests(items)
        case .city(let city?): _ = try ProfileCheck.limited("city", city, TextLimits.city)
        case .bio(let bio?): _ = try ProfileCheck.limited("bio", bio, TextLimits.bio)
        default: break
        }
    }
}

/// What `erase` did.
public struct Erasure: Hashable, Sendable {
    /// The id that was erased.
    public var viewer: String
    /// Those whose standing match with the viewer ended, in id order: their
    /// open pages are told (`{"event":"unmatched",…}`).
    public var unmatched: [String]
    /// The id reports about the viewer are kept under, nil when there were none.
    public var tombstone: String?
    /// How many rows went, all tables together (the profile included).
    public var rowsRemoved: Int

    public init(viewer: String, unmatched: [String], tombstone: String?, rowsRemoved: Int) {
        self.viewer = viewer
        self.unmatched = unmatched
        self.tombstone = tombstone
        self.rowsRemoved = rowsRemoved
    }
}

/// Everything the store holds about one person, as named sections of rows
/// (each row its columns in order): the export document's body
/// (Documentation/PersonalData.md). Which stored column each section
/// covers, and which columns naming a person are left out and why, is
/// `PersonalData.coverage`, which a test holds against the live schema.
public struct PersonalExport: Sendable {
    public struct Section: Sendable {
        public var name: String
        public var rows: [[(String, Value)]]
    }

    /// One value of the document.
    public enum Value: Hashable, Sendable {
        case null
        case int(Int)
        case real(Double)
        case text(String)
        case strings([String])
    }

    /// The export format's version: raised whenever a section or a
    /// column's meaning changes (additions too), so a reader can tell.
    public static let version = 3

    public var viewer: String
    public var exportedAt: String
    public var sections: [Section]
}

/// Where a person's id or key is stored, and what export and erase do with
/// each place: the one list both follow, and the one a test compares with
/// every column of the live schema that references `profiles(key)`.
public enum PersonalData {
    /// A stored column that names a person.
    public struct Column: Hashable, Sendable, CustomStringConvertible {
        public var table: String
        public var column: String
        public var description: String { table + "." + column }

        public init(_ table: String, _ column: String) {
            self.table = table
            self.column = column
        }
    }

    /// How export treats a column naming the person.
    public enum Exported: Hashable, Sendable {
        /// Rows naming the person here are in the export, under this section.
        case section(String)
        /// Left out, for this reason (another person's data about them).
        case withheld(String)
    }

    /// Every column that names a person (references `profiles(key)`, or
    /// holds an id), with what export does with it. Erase removes every row
    /// of every one (reports about the person: their reason is kept under a
    /// tombstone id first). A new table holding a person's key fails
    /// `PersonalDataSchemaTests` until it is added here, to export and to erase.
    public static let coverage: [(Column, Exported)] = [
        (Column("profiles", "key"), .section("profile")),
        (Column("decisions", "viewer"), .section("decisions")),
        (
            Column("decisions", "profile"),
            .withheld("others' decisions about the person are theirs; likes still waiting are shown by likes")
        ),
        (Column("matches", "low"), .section("matches")),
        (Column("matches", "high"), .section("matches")),
        (Column("messages", "low"), .section("messages")),
        (Column("messages", "high"), .section("messages")),
        (Column("messages", "sender"), .section("messages")),
        (Column("messages", "recipient"), .section("messages")),
        (Column("feed_cursors", "viewer"), .section("feed_positions")),
        (Column("liker_cursors", "viewer"), .section("feed_positions")),
        (Column("blocks", "blocker"), .section("blocks")),
        (Column("blocks", "blocked"), .withheld("who blocked the person is not told to them")),
        (Column("reports", "reporter"), .section("reports")),
        (Column("reports", "reported"), .withheld("reports about the person are for moderators")),
        (Column("rank_stats", "profile"), .section("rank_stats")),
        (Column("rank_fit", "profile"), .section("rank_fit")),
        (Column("photos", "profile"), .section("photos")),
        (Column("moderators", "profile"), .section("moderation")),
        (Column("suspensions", "profile"), .section("moderation")),
        (Column("warnings", "profile"), .section("moderation")),
        (Column("flags", "profile"), .withheld("what the store flagged about the person is for moderators")),
    ]

    /// Tables that hold no person's key: `settings` names people by id
    /// (`settingsNamingPerson`), `schema_version` nobody, `report_resolutions`
    /// a report (and goes with it), `rank_fit_mean` the ranking's fit as a
    /// whole, and `moderation_log` names people by id
    /// as they were: it is append-only, and outlives an erase
    /// (Documentation/Moderation.md).
    public static let tablesNamingNobody: Set<String> = [
        "settings", "schema_version", "report_resolutions", "moderation_log", "rank_fit_mean",
    ]

    /// Settings rows that name a person by id (not a key): the last viewer,
    /// the sign-in generation, tombstoned reports they made, and the
    /// evidence of reports (reporter and reported), which an erase leaves
    /// for the rule `evidence-days` and no export includes.
    public static let settingsNamingPerson = [
        "last_viewer", "signin.generation.ID", "erased-report.* (reporter)", "evidence.* (reporter, reported)",
    ]

    /// The prefix of a settings row that keeps a report about an erased
    /// person (`erased-report.TOMBSTONE.N`, value a JSON object).
    static let tombstonePrefix = "erased-report."
}
