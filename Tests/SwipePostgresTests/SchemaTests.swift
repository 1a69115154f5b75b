import Foundation
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// schema.postgres.sql is schema.sql's twin: the same version, tables,
/// columns and indexes, and the same writes accepted and refused, checked
/// side by side on a temporary SQLite file and a fresh PostgreSQL database.
@Suite(.needsPostgres) struct SchemaTests {
    let database: TestDatabase
    let folder = TemporaryFolder("swipe-pg-schema")
    init() throws { database = try TestDatabase() }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let postgresSchema = try! String(contentsOf: root.appendingPathComponent("schema.postgres.sql"), encoding: .utf8)
    static let sqliteSchema = try! String(contentsOf: root.appendingPathComponent("schema.sql"), encoding: .utf8)

    /// Tables that exist on one side only, on purpose.
    static let postgresOnly: Set<String> = ["schema_version"]  // PostgreSQL has no user_version
    static let sqliteOnly: Set<String> = []

    func both() throws -> (SwipeStore.Connection, PGConnection) {
        let sqlite = try Connection(path: folder.path + "/twin.sqlite")
        try sqlite.execute(Self.sqliteSchema)
        let postgres = try database.connect()
        try postgres.execute(Self.postgresSchema)
        return (sqlite, postgres)
    }

    @Test func bothSchemasAreTheSameVersion() throws {
        let (sqlite, postgres) = try both()
        let sqliteVersion = try sqlite.scalarInt("PRAGMA user_version")
        #expect(sqliteVersion == Schema.version)
        #expect(try postgres.scalarInt("SELECT version FROM schema_version") == sqliteVersion,
                "schema.postgres.sql must follow schema.sql's version")
        #expect(try postgres.scalarText("SELECT application FROM schema_version") == "swipe")
    }

    @Test func bothHaveTheSameTablesColumnsAndIndexes() throws {
        let (sqlite, postgres) = try both()
        var sqliteColumns: [String: [String]] = [:]
        let tables = try sqlite.statement(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        ).map { $0.text(0) }
        for table in tables where !Self.sqliteOnly.contains(table) {
            sqliteColumns[table] = try sqlite.statement("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
                .bind(.text(table)).map { $0.text(0) }
        }
        var postgresColumns: [String: [String]] = [:]
        for row in try postgres.query("""
            SELECT table_name::text, column_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
            """) {
            let table = try row.text(0)
            if Self.postgresOnly.contains(table) { continue }
            postgresColumns[table, default: []].append(try row.text(1))
        }
        #expect(postgresColumns == sqliteColumns)

        let sqliteIndexes = Set(try sqlite.statement(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'").map { $0.text(0) })
        let postgresIndexes = Set(try postgres.query("""
            SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()
            AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'
            """).map { try $0.text(0) })
        #expect(postgresIndexes == sqliteIndexes)
        #expect(sqliteIndexes.contains("decisions_standing"))
        // The one-standing-decision index is unique and partial on both.
        #expect(try sqlite.scalarInt(
            "SELECT \"unique\" AND partial FROM pragma_index_list('decisions') WHERE name = 'decisions_standing'") == 1)
        #expect(try postgres.scalarInt("""
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
    static let insertDecision = "INSERT INTO decisions (viewer, profile, decision, via, decided_at, undone_at) VALUES ($1, $2, $3, $4, $5, $6)"

    static func profile(_ id: String, name: String = "N", age: Int64 = 30, photos: String = "[]", interests: String = "[]",
                        ok accepted: Bool) -> Write {
        Write(sql: insertProfile, arguments: [.text(id), .text(name), .integer(age), .text(photos), .text(interests)],
              accepted: accepted)
    }

    static func decision(_ viewer: Int64, _ profile: Int64, _ decision: String = "like", via: String = "drag",
                         at: String = at, undone: String? = nil, ok accepted: Bool) -> Write {
        Write(sql: insertDecision, arguments: [.integer(viewer), .integer(profile), .text(decision), .text(via), .text(at),
                                               .optionalText(undone)], accepted: accepted)
    }

    static let writes: [Write] = [
        profile("p-1", ok: true), profile("p-2", photos: #"["a.jpg","b.jpg"]"#, ok: true), profile("p-3", interests: #"["x"]"#, ok: true),
        profile("p-4", age: 17, ok: false), profile("p-4", age: 121, ok: false), profile("", ok: false), profile("p-4", name: "", ok: false),
        profile("p-1", ok: false),  // duplicate id
        profile("p-4", photos: #"{"a":1}"#, ok: false), profile("p-4", interests: "\"x\"", ok: false),
        profile("p-4", age: 18, photos: "[1, 2]", ok: true),
        decision(1, 2, ok: true),
        decision(1, 2, "hate", ok: false),  // a second standing decision about the same profile
        decision(2, 1, "superlike", via: "button", ok: true),
        Write(sql: "UPDATE decisions SET undone_at = $1 WHERE viewer = $2 AND profile = $3 AND undone_at IS NULL",
              arguments: [.text(at), .integer(1), .integer(2)], accepted: true),
        decision(1, 2, "hate", via: "detail", ok: true),  // the undone one no longer stands
        decision(1, 2, "like", at: at, undone: at, ok: true),  // an undone row may repeat
        decision(1, 1, ok: false), decision(1, 3, "meh", ok: false), decision(1, 3, via: "swipe", ok: false),
        decision(1, 3, at: "2026-11-20 23:55:01.123Z", ok: false), decision(1, 3, at: "2026-11-20T23:55:01.12Z", ok: false),
        decision(1, 3, at: "2026-11-20T23:55:01.123", ok: false), decision(1, 3, undone: "yesterday", ok: false),
        decision(1, 99, ok: false), decision(99, 1, ok: false),  // foreign keys
        Write(sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
              arguments: [.integer(2), .integer(1), .text(at)], accepted: false),
        Write(sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
              arguments: [.integer(1), .integer(2), .text(at)], accepted: true),
        Write(sql: "INSERT INTO matches (low, high, matched_at) VALUES ($1, $2, $3)",
              arguments: [.integer(1), .integer(2), .text(at)], accepted: false),
        Write(sql: "INSERT INTO settings (name, value) VALUES ($1, $2)", arguments: [.text("viewer"), .text("p-1")], accepted: true),
        Write(sql: "INSERT INTO settings (name, value) VALUES ($1, $2)", arguments: [.text("viewer"), .text("p-2")], accepted: false),
        Write(sql: "INSERT INTO feed_cursors (viewer, after_key) VALUES ($1, $2)", arguments: [.integer(1), .integer(3)], accepted: true),
        Write(sql: "INSERT INTO feed_cursors (viewer, after_key) VALUES ($1, $2)", arguments: [.integer(42), .integer(3)], accepted: false),
    ]

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
        for write in Self.writes {
            let sqliteSQL = write.sql.replacingOccurrences(of: "$", with: "?")
            let sqliteAccepted = (try? sqlite.statement(sqliteSQL).bind(write.arguments.map(Self.sqliteValue)).run()) != nil
            var postgresError: PostgresError?
            do {
                try postgres.statement(write.sql).run(write.arguments)
            } catch let error as PostgresError {
                postgresError = error
            }
            #expect(sqliteAccepted == write.accepted, "SQLite: \(write)")
            #expect((postgresError == nil) == write.accepted, "PostgreSQL: \(write): \(String(describing: postgresError))")
            if let postgresError {
                // Refused by a constraint (class 23), or by the json type's own parser (22P02), never by a typo.
                #expect(postgresError.sqlState?.hasPrefix("23") == true || postgresError.sqlState == "22P02",
                        "\(write): \(postgresError)")
            }
        }
        let query = "SELECT viewer, profile, decision, via, undone_at IS NULL FROM decisions ORDER BY key"
        let sqliteRows = try sqlite.statement(query).map { "\($0.int(0)) \($0.int(1)) \($0.text(2)) \($0.text(3)) \($0.int(4) == 1)" }
        let postgresRows = try postgres.query(query).map {
            "\(try $0.int(0)) \(try $0.int(1)) \(try $0.text(2)) \(try $0.text(3)) \(try $0.bool(4))"
        }
        #expect(sqliteRows == ["1 2 like drag false", "2 1 superlike button true", "1 2 hate detail true", "1 2 like drag false"])
        #expect(postgresRows == sqliteRows)
        let missed = "SELECT viewer, profile, their_decision FROM missed_matches ORDER BY viewer, profile"
        #expect(try sqlite.statement(missed).map { "\($0.int(0)) \($0.int(1)) \($0.text(2))" } == ["1 2 superlike"])
        #expect(try postgres.query(missed).map { "\(try $0.int(0)) \(try $0.int(1)) \(try $0.text(2))" } == ["1 2 superlike"])
        #expect(try postgres.scalarText("SELECT photos::text FROM profiles WHERE id = $1", .text("p-2")) == #"["a.jpg","b.jpg"]"#)
    }

    @Test func aNewerVersionIsRefusedLikeOnSQLiteAndNothingChanges() throws {
        let (sqlite, postgres) = try both()
        let newer = Schema.version + 1
        try sqlite.execute("PRAGMA user_version = \(newer)")
        let sqliteRefusal = #expect(throws: StoreError.self) { try Schema.prepare(sqlite) }
        #expect(sqliteRefusal == .newerSchema(path: sqlite.path, found: newer, supported: Schema.version))

        try postgres.run(Self.insertProfile, .text("p-1"), .text("N"), .integer(30), .text("[]"), .text("[]"))
        try postgres.run("UPDATE schema_version SET version = $1", .integer(Int64(newer)))
        let refusal = #expect(throws: PostgresError.self) { try postgres.execute(Self.postgresSchema) }
        #expect(refusal?.sqlState == "55000")
        #expect(refusal?.message == "this database has swipe schema version \(newer), newer than this schema (version \(Schema.version))")
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
        #expect(try postgres.scalarInt("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == 1,
                "only the other program's table remains")
    }
}
