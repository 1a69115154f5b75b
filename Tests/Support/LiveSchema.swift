import Foundation
import SwipeStore
import Testing

/// The schema as the database itself reports it (SQLite's `sqlite_master`
/// and `pragma_foreign_key_list`, PostgreSQL's `information_schema`), not
/// as swipe's sources say it, with the queries the personal-data tests
/// walk it with.
public struct LiveSchema {
    let store: any SwipeDatabase
    let dialect: String

    public init(_ store: any SwipeDatabase) throws {
        self.store = store
        dialect = try Self.opened(store) { $0.executor.dialect.name }
    }

    public struct NotSQL: Error {}

    static func opened<T>(_ store: any SwipeDatabase, _ body: (any SQLDatabase) throws -> T) throws -> T {
        guard let database = store as? any SQLDatabase else { throw NotSQL() }
        return try body(database)
    }

    public func rows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ decode: @escaping (any SQLRow) throws -> T)
        throws
        -> [T]
    {
        try Self.opened(store) { database in try Self.rows(database, sql, arguments, decode) }
    }

    private static func rows<D: SQLDatabase, T>(
        _ database: D, _ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T
    ) throws -> [T] {
        try database.executor.all(sql, arguments) { try decode($0) }
    }

    /// Runs one statement as is (test set-up: bulk rows made by the database).
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
        try Self.opened(store) { database in try Self.perform(database, sql, arguments) }
    }

    private static func perform<D: SQLDatabase>(_ database: D, _ sql: String, _ arguments: [SQLValue]) throws {
        try database.write { try database.executor.run(sql, arguments) }
    }

    public func count(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        try rows(sql, arguments) { try $0.int("n") }.first ?? 0
    }

    /// Every table, by name.
    public func tables() throws -> [String] {
        dialect == "sqlite"
            ? try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { try $0.text("name") }
            : try rows(
                """
                SELECT table_name::text AS name FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1
                """
            ) { try $0.text("name") }
    }

    /// Every column that references `profiles(key)`, and `profiles.key` itself.
    public func personColumns() throws -> [PersonalData.Column] {
        let found: [PersonalData.Column]
        if dialect == "sqlite" {
            found = try rows(
                """
                SELECT m.name AS tbl, f."from" AS col FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
                WHERE m.type = 'table' AND f."table" = 'profiles' ORDER BY 1, 2
                """
            ) { PersonalData.Column(try $0.text("tbl"), try $0.text("col")) }
        } else {
            found = try rows(
                """
                SELECT k.table_name::text AS tbl, k.column_name::text AS col
                FROM information_schema.referential_constraints AS r
                JOIN information_schema.key_column_usage AS k
                  ON k.constraint_schema = r.constraint_schema AND k.constraint_name = r.constraint_name
                JOIN information_schema.key_column_usage AS u
                  ON u.constraint_schema = r.unique_constraint_schema AND u.constraint_name = r.unique_constraint_name
                 AND u.ordinal_position = k.position_in_unique_constraint
                WHERE r.constraint_schema = current_schema() AND u.table_name = 'profiles' AND u.column_name = 'key'
                ORDER BY 1, 2
                """
            ) { PersonalData.Column(try $0.text("tbl"), try $0.text("col")) }
        }
        return [PersonalData.Column("profiles", "key")] + found
    }

    public func key(of id: String) throws -> Int? {
        try rows("SELECT key FROM profiles WHERE id = $1", [.text(id)]) { try $0.int("key") }.first
    }

    /// How many rows name the person: by key in any column referencing
    /// profiles(key), by id in `profiles.id`, and settings rows whose name or
    /// value holds the id.
    public func rowsNaming(key: Int, id: String) throws -> Int {
        try describeRowsNaming(key: key, id: id).values.reduce(0, +)
    }

    /// The same, per place (`table.column`), places with rows only.
    public func describeRowsNaming(key: Int, id: String) throws -> [String: Int] {
        var found: [String: Int] = [:]
        for column in try personColumns() {
            // Identifiers from the database's own catalogue, never from input.
            let count =
                try rows(
                    "SELECT count(*) AS n FROM \(column.table) WHERE \(column.column) = $1", [.int(key)]
                ) { try $0.int("n") }.first ?? 0
            if count > 0 { found[column.description] = count }
        }
        let byID =
            try rows("SELECT count(*) AS n FROM profiles WHERE id = $1", [.text(id)]) { try $0.int("n") }
            .first ?? 0
        if byID > 0 { found["profiles.id"] = byID }
        let settings = try settingsMentioning(id)
        if settings > 0 { found["settings"] = settings }
        return found
    }

    /// Settings rows whose name ends with the id, whose value is the id, or
    /// whose value holds it as a JSON string.
    public func settingsMentioning(_ id: String) throws -> Int {
        try rows("SELECT name, value FROM settings") { (try $0.text("name"), try $0.text("value")) }.filter {
            $0.0.hasSuffix("." + id) || $0.1 == id || $0.1.contains(JSONText.quoted(id))
        }.count
    }

    /// `rank_stats` of `id` agrees with a recount of the ledger.
    public func expectRankStatsMatchTheLedger(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let key = try key(of: id) else { return }
        let stored =
            try rows(
                "SELECT given, given_likes, received, received_likes FROM rank_stats WHERE profile = $1", [.int(key)]
            ) {
                [try $0.int("given"), try $0.int("given_likes"), try $0.int("received"), try $0.int("received_likes")]
            }
            .first ?? [0, 0, 0, 0]
        let counted = try rows(
            """
            SELECT (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL) AS g,
                   (SELECT count(*) FROM decisions WHERE viewer = $1 AND undone_at IS NULL AND decision <> 'hate') AS gl,
                   (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL) AS r,
                   (SELECT count(*) FROM decisions WHERE profile = $1 AND undone_at IS NULL AND decision <> 'hate') AS rl
            """, [.int(key)]
        ) { [try $0.int("g"), try $0.int("gl"), try $0.int("r"), try $0.int("rl")] }.first
        #expect(stored == counted, "rank_stats of \(id)", sourceLocation: sourceLocation)
    }
}
