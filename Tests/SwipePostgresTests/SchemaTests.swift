import Foundation
import SwipeCSV
import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// schema.postgres.sql is schema.sql's twin: the same version, tables,
/// columns and indexes, and the same writes accepted and refused, checked
/// side by side on a temporary SQLite file and a fresh PostgreSQL database.
@Suite(.needsPostgres) struct SchemaTests {
    let database: PostgresTestDatabase
    let folder = TemporaryFolder("swipe-pg-schema")
    init() throws { database = try PostgresTestDatabase() }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let postgresSchema = try! String(
        contentsOf: root.appendingPathComponent("schema.postgres.sql"), encoding: .utf8)
    static let sqliteSchema = try! String(contentsOf: root.appendingPathComponent("schema.sql"), encoding: .utf8)

    /// Tables that exist on one side only, on purpose. SQLite's virtual
    /// tables and their shadow tables (none today) would be left out too.
    static let postgresOnly: Set<String> = ["schema_version"]  // PostgreSQL has no user_version
    /// Indexes on one side only: the feed's walks in key order, which SQLite's
    /// indexes give by ending with the rowid (schema.postgres.sql says more).
    static let postgresOnlyIndexes: Set<String> = ["profiles_cell_key", "decisions_likers_key"]

    func both() throws -> (SwipeSQLite.SQLiteConnection, PGConnection) {
        let sqlite = try SQLiteConnection(path: folder.path + "/twin.sqlite")
        try sqlite.execute(Self.sqliteSchema)
        let postgres = try database.connect()
        try postgres.execute(Self.postgresSchema)
        return (sqlite, postgres)
    }

    @Test func bothSchemasAreTheSameVersion() throws {
        let (sqlite, postgres) = try both()
        let sqliteVersion = try sqlite.scalarInt("PRAGMA user_version")
        #expect(sqliteVersion == Schema.version)
        #expect(
            try postgres.scalarInt("SELECT version FROM schema_version") == sqliteVersion,
            "schema.postgres.sql must follow schema.sql's version")
        #expect(try postgres.scalarText("SELECT application FROM schema_version") == "swipe")
    }

    @Test func bothHaveTheSameTablesColumnsAndIndexes() throws {
        let (sqlite, postgres) = try both()
        var sqliteColumns: [String: [String]] = [:]
        let virtual = try sqlite.statement("SELECT name FROM sqlite_schema WHERE sql LIKE 'CREATE VIRTUAL%'").map {
            $0.text(0)
        }
        let tables = try sqlite.statement(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
        ).map { $0.text(0) }.filter { table in !virtual.contains { table == $0 || table.hasPrefix($0 + "_") } }
        for table in tables {
            sqliteColumns[table] = try sqlite.statement("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
                .bind(.text(table)).map { $0.text(0) }
        }
        var postgresColumns: [String: [String]] = [:]
        for row in try postgres.query(
            """
            SELECT table_name::text, column_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
            """)
        {
            let table = try row.text(0)
            if Self.postgresOnly.contains(table) { continue }
            postgresColumns[table, default: []].append(try row.text(1))
        }
        #expect(postgresColumns == sqliteColumns)

        let sqliteIndexes = Set(
            try sqlite.statement(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'"
            ).map { $0.text(0) })
        let postgresIndexes = Set(
            try postgres.query(
                """
                SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()
                AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'
                """
            ).map { try $0.text(0) })
        #expect(postgresIndexes.subtracting(Self.postgresOnlyIndexes) == sqliteIndexes)
        #expect(sqliteIndexes.contains("decisions_standing"))
        // The one-standing-decision index is unique and partial on both.
        #expect(
            try sqlite.scalarInt(
                "SELECT \"unique\" AND partial FROM pragma_index_list('decisions') WHERE name = 'decisions_standing'")
                == 1)
        #expect(
            try postgres.scalarInt(
                """
                SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE c.relname = 'decisions_standing' AND i.indisunique AND i.indpred IS NOT NULL
                """) == 1)
    }

    /// One write and whether the contract accepts it (worked by hand from
    /// schema.sql's constraints, not read from either database).
    struct Write: CustomStringConvertible {
        var sql: String  // PostgreSQL's $n; SQLite gets ?n
        var arguments: [PostgresValue]
        var accepted: Bool
        var description: String { "\(sql) \(arguments)" }
    }

    static let at = "2026-11-20T23:55:01.123Z"
    static let insertProfile = "INSERT INTO profiles (id, name, age, photos, interests) VALUES ($1, $2, $3, $4, $5)"
    static let insertDecision =
        "INSERT INTO decisions (viewer, profile, decision, via, decided_at, undone_at) VALUES ($1, $2, $3, $4, $5, $6)"

    static func profile(
        _ id: String, name: String = "N", age: Int64 = 30, photos: String = "[]", interests: String = "[]",
        ok accepted: Bool
    ) -> Write {
        Write(
            sql: insertProfile, arguments: [.text(id), .text(name), .integer(age), .text(photos), .text(interests)],
            accepted: accepted)
    }

    static func decision(
        _ viewer: Int64, _ profile: Int64, _ decision: String = "like", via: String = "drag",
        at: String = at, undone: String? = nil, ok accepted: Bool
    ) -> Write {
        Write(
            sql: insertDecision,
            arguments: [
                .integer(viewer), .integer(profile), .text(decision), .text(via), .text(at),
                .optionalText(undone),
            ], accepted: accepted)
    }

    static let writes: [Write] = [
        profile("p-1", ok: true), profile("p-2", photos: #"["a.jpg","b.jpg"]"#, ok: true),
        profile("p-3", interests: #"["x"]"#, ok: true),
        profile("p-4", age: 17, ok: false), profile("p-4", age: 121, ok: false), profile("", ok: false),
        profile("p-4", name: "", ok: false),
        profile("p-1", ok: false),  // duplicate id
        profile("p-4", photos: #"{"a":1}"#, ok: false), profile("p-4", interests: "\"x\"", ok: false),
        profile("p-4", age: 18, photos: "[1, 2]", ok: true),
        decision(1, 2, ok: true),
        decision(1, 2, "hate", ok: false),  // a second standing decision about the same profile
        decision(2, 1, "superlike", via: "button", ok: true),
        Write(
            sql: "UPDATE decisions SET undone_at = $1 WHERE viewer = $2 AND profile = $3 AND undone_at IS NULL",
            arguments: [.text(at), .integer(1), .integer(2)], accepted: true),
        decision(1, 2, "hate", via: "detail", ok: true),  // the undone one no longer stands
        decision(1, 2, "like", at: at, undone: at, ok: true),  // an undone row may repeat
        decision(1, 1, ok: false), decision(1, 3, "meh", ok: false), decision(1, 3, via: "swipe", ok: false),
        decision(1, 3, at: "2026-11-20 23:55:01.123Z", ok: false),
        decision(1, 3, at: "2026-11-20T23:55:01.12Z", ok: false),
        decision(1, 3, at: "2026-11-20T23:55:01.123", ok: false), decision(1, 3, undone: "yesterday", ok: false),
        decision(1, 99, ok: false), decision(99, 1, ok: false),  // foreign keys
        Write(
            sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
            arguments: [.integer(2), .integer(1), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(2), .text(at)], accepted: true),
        Write(
            sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(2), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO settings (name, value) VALUES ($1, $2)", arguments: [.text("viewer"), .text("p-1")],
            accepted: true),
        Write(
            sql: "INSERT INTO settings (name, value) VALUES ($1, $2)", arguments: [.text("viewer"), .text("p-2")],
            accepted: false),
        Write(
            sql: "INSERT INTO feed_cursors (viewer, after_key) VALUES ($1, $2)", arguments: [.integer(1), .integer(3)],
            accepted: true),
        Write(
            sql: "INSERT INTO feed_cursors (viewer, after_key) VALUES ($1, $2)",
            arguments: [.integer(42), .integer(3)], accepted: false),
    ]

    static func update(_ assignments: String, _ arguments: [PostgresValue], key: Int64, ok accepted: Bool) -> Write {
        Write(
            sql: "UPDATE profiles SET \(assignments) WHERE key = $\(arguments.count + 1)",
            arguments: arguments + [.integer(key)], accepted: accepted)
    }

    /// Writes only version 2 (discovery) has columns and tables for.
    static let discoveryWrites: [Write] = [
        update("lat = $1, lon = $2", [.real(48.85), .real(2.35)], key: 1, ok: true),
        update("lat = $1, lon = $2", [.real(-90), .real(-180)], key: 2, ok: true),
        update("lat = $1, lon = $2", [.real(90.5), .real(0)], key: 1, ok: false),
        update("lat = $1, lon = $2", [.real(0), .real(180.5)], key: 1, ok: false),
        update("lat = $1, lon = $2", [.null, .real(2)], key: 1, ok: false),  // both or neither
        update("lat = $1, lon = $2", [.real(2), .null], key: 1, ok: false),
        update("lat = $1, lon = $2", [.null, .null], key: 3, ok: true),
        update("seeking = $1", [.text("f;m")], key: 1, ok: true),
        update("seeking = $1", [.null], key: 2, ok: true),
        update("seeking = $1", [.text("")], key: 1, ok: false),
        update("seeking = $1", [.text(";f")], key: 1, ok: false),
        update("seeking = $1", [.text("f;")], key: 1, ok: false),
        update("seeking = $1", [.text("f;;m")], key: 1, ok: false),
        update("age_min = $1, age_max = $2", [.integer(25), .integer(35)], key: 1, ok: true),
        update("age_min = $1, age_max = $2", [.integer(30), .integer(25)], key: 1, ok: false),
        update("age_min = $1, age_max = $2", [.integer(17), .integer(30)], key: 1, ok: false),
        update("age_min = $1, age_max = $2", [.integer(18), .integer(121)], key: 1, ok: false),
        update("max_km = $1", [.real(0.5)], key: 1, ok: true),
        update("max_km = $1", [.real(0)], key: 1, ok: false),
        update("max_km = $1", [.real(-3)], key: 1, ok: false),
        update("max_km = $1", [.null], key: 1, ok: true),
        decision(1, 3, via: "import", ok: true),
        Write(
            sql: "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(1), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(3), .text(at)], accepted: true),
        Write(
            sql: "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(3), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO blocks (blocker, blocked, blocked_at) VALUES ($1, $2, $3)",
            arguments: [.integer(1), .integer(99), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO reports (reporter, reported, reason, reported_at) VALUES ($1, $2, $3, $4)",
            arguments: [.integer(1), .integer(3), .text(""), .text(at)], accepted: false),
        Write(
            sql: "INSERT INTO reports (reporter, reported, reason, reported_at) VALUES ($1, $2, $3, $4)",
            arguments: [.integer(1), .integer(3), .text("spam"), .text(at)], accepted: true),
        Write(
            sql: "UPDATE matches SET unmatched_at = $1 WHERE low = $2 AND high = $3",
            arguments: [.text(at), .integer(1), .integer(2)], accepted: true),
        Write(
            sql: "INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES ($1, $2, $3, $4)",
            arguments: [.integer(1), .text("like"), .text(at), .integer(2)], accepted: true),
        Write(
            sql: "INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES ($1, $2, $3, $4)",
            arguments: [.integer(1), .text("like"), .text(at), .integer(3)], accepted: false),
        Write(
            sql: "INSERT INTO liker_cursors (viewer, decision, after_at, after_key) VALUES ($1, $2, $3, $4)",
            arguments: [.integer(1), .text("hate"), .text(at), .integer(3)], accepted: false),
    ]

    /// The writes this schema version has columns for.
    static var versionWrites: [Write] { writes + (Schema.version >= 2 ? discoveryWrites : []) }

    static func sqliteValue(_ value: PostgresValue) -> SQLiteValue {
        switch value {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .boolean(let v): .integer(v ? 1 : 0)
        case .bytes: fatalError("no blobs in the schema")
        }
    }

    @Test func bothAcceptAndRefuseTheSameWrites() throws {
        let (sqlite, postgres) = try both()
        for write in Self.versionWrites {
            let sqliteSQL = write.sql.replacingOccurrences(of: "$", with: "?")
            let sqliteAccepted =
                (try? sqlite.statement(sqliteSQL).bind(write.arguments.map(Self.sqliteValue)).run()) != nil
            var postgresError: PostgresError?
            do {
                try postgres.statement(write.sql).run(write.arguments)
            } catch let error as PostgresError {
                postgresError = error
            }
            #expect(sqliteAccepted == write.accepted, "SQLite: \(write)")
            #expect(
                (postgresError == nil) == write.accepted, "PostgreSQL: \(write): \(String(describing: postgresError))")
            if let postgresError {
                // Refused by a constraint (class 23), or by the json type's own parser (22P02), never by a typo.
                #expect(
                    postgresError.sqlState?.hasPrefix("23") == true || postgresError.sqlState == "22P02",
                    "\(write): \(postgresError)")
            }
        }
        let query = "SELECT viewer, profile, decision, via, undone_at IS NULL FROM decisions ORDER BY key"
        let sqliteRows = try sqlite.statement(query).map {
            "\($0.int(0)) \($0.int(1)) \($0.text(2)) \($0.text(3)) \($0.int(4) == 1)"
        }
        let postgresRows = try postgres.query(query).map {
            "\(try $0.int(0)) \(try $0.int(1)) \(try $0.text(2)) \(try $0.text(3)) \(try $0.bool(4))"
        }
        #expect(
            sqliteRows == [
                "1 2 like drag false", "2 1 superlike button true", "1 2 hate detail true", "1 2 like drag false",
            ]
                + (Schema.version >= 2 ? ["1 3 like import true"] : []))
        #expect(postgresRows == sqliteRows)
        if Schema.version >= 2 {
            let preferences =
                "SELECT lat, lon, seeking, age_min, age_max, max_km FROM profiles WHERE key <= 3 ORDER BY key"
            // lat, lon and max_km are numbers; seeking text; the ages integers.
            func sqliteCell(_ row: SwipeSQLite.Row, _ column: Int32) -> String {
                if row.isNull(column) { return "NULL" }
                switch column {
                case 0, 1, 5: return String(row.double(column))
                default: return row.text(column)
                }
            }
            func postgresCell(_ row: PGRow, _ column: Int) throws -> String {
                if try row.isNull(column) { return "NULL" }
                switch column {
                case 0, 1, 5: return String(try row.double(column))
                case 2: return try row.text(column)
                default: return String(try row.int(column))
                }
            }
            let sqlitePreferences = try sqlite.statement(preferences).map { row in
                (0..<6).map { sqliteCell(row, Int32($0)) }
            }
            let postgresPreferences = try postgres.query(preferences).map { row in
                try (0..<6).map { try postgresCell(row, $0) }
            }
            #expect(
                sqlitePreferences == [
                    ["48.85", "2.35", "f;m", "25", "35", "NULL"], ["-90.0", "-180.0", "NULL", "18", "120", "NULL"],
                    ["NULL", "NULL", "NULL", "18", "120", "NULL"],
                ])
            #expect(postgresPreferences == sqlitePreferences)
            // The cell index's expression gives the same cells on both (floor on
            // PostgreSQL for SQLite's truncating CAST): 138*1000+182, 0*1000+0.
            let sqliteCells = try sqlite.statement(
                "SELECT CAST(lat + 90 AS INTEGER) * 1000 + CAST(lon + 180 AS INTEGER) FROM profiles WHERE lat IS NOT NULL ORDER BY key"
            ).map { $0.int(0) }
            let postgresCells = try postgres.query(
                "SELECT floor(lat + 90)::integer * 1000 + floor(lon + 180)::integer FROM profiles WHERE lat IS NOT NULL ORDER BY key"
            ).map { try $0.int(0) }
            #expect(sqliteCells == [138_182, 0])
            #expect(postgresCells == sqliteCells)
        }
        let missed = "SELECT viewer, profile, their_decision FROM missed_matches ORDER BY viewer, profile"
        #expect(try sqlite.statement(missed).map { "\($0.int(0)) \($0.int(1)) \($0.text(2))" } == ["1 2 superlike"])
        #expect(
            try postgres.query(missed).map { "\(try $0.int(0)) \(try $0.int(1)) \(try $0.text(2))" } == [
                "1 2 superlike"
            ])
        #expect(
            try postgres.scalarText("SELECT photos::text FROM profiles WHERE id = $1", .text("p-2"))
                == #"["a.jpg","b.jpg"]"#)
    }

    @Test func aNewerVersionIsRefusedLikeOnSQLiteAndNothingChanges() throws {
        let (sqlite, postgres) = try both()
        let newer = Schema.version + 1
        try sqlite.execute("PRAGMA user_version = \(newer)")
        let sqliteRefusal = #expect(throws: DatabaseOpenError.self) { try Schema.identify(sqlite) }
        #expect(sqliteRefusal == .newerSchema(path: sqlite.path, found: newer, supported: Schema.version))

        try postgres.run(Self.insertProfile, .text("p-1"), .text("N"), .integer(30), .text("[]"), .text("[]"))
        try postgres.run("UPDATE schema_version SET version = $1", .integer(Int64(newer)))
        let refusal = #expect(throws: PostgresError.self) { try postgres.execute(Self.postgresSchema) }
        #expect(refusal?.sqlState == "55000")
        #expect(
            refusal?.message
                == "this database has swipe schema version \(newer), newer than this schema (version \(Schema.version))"
        )
        #expect(try postgres.scalarInt("SELECT version FROM schema_version") == newer)
        #expect(try postgres.scalarInt("SELECT count(*) FROM profiles") == 1)

        try postgres.run("UPDATE schema_version SET version = $1", .integer(Int64(Schema.version)))
        let again = #expect(throws: PostgresError.self) { try postgres.execute(Self.postgresSchema) }
        #expect(again?.sqlState == "42P07")
        #expect(try postgres.scalarInt("SELECT count(*) FROM profiles") == 1)
    }

    @Test func aFailedApplicationLeavesNothingBehind() throws {
        // Another program's database that happens to have a `settings` table.
        let postgres = try database.connect()
        try postgres.execute("CREATE TABLE settings (k int)")
        let error = #expect(throws: PostgresError.self) { try postgres.execute(Self.postgresSchema) }
        #expect(error?.sqlState == "42P07")
        #expect(
            try postgres.scalarInt("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == 1,
            "only the other program's table remains")
    }
}
