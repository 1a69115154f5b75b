import SwipeStore

/// `schema.postgres.sql` on a server: recognising a database by reading
/// only, and creating the schema in an empty one.
public enum PostgresSchema {
    /// The newest schema version this swipe reads and writes (the one
    /// `schema.postgres.sql` creates).
    public static let version = 8

    /// What a database holds, as far as swipe is concerned.
    enum Identity: Equatable {
        /// Nothing in its current schema: `swipe import` may create swipe's.
        case empty
        /// swipe's schema at `version`.
        case swipe
        /// swipe's schema at an older version that `migrate` brings forward.
        case older(version: Int)
    }

    /// Identifies the database without writing: swipe's schema (its
    /// `schema_version` row) at this version, or an empty current schema;
    /// with it, which server-side functions the database holds
    /// (`installFunctions` takes them, sparing its own read), nil unless
    /// the identity is `.swipe`.
    ///
    /// Its three reads (whether `schema_version` is in the current schema,
    /// its row, the functions) go in one flight: one round trip where three
    /// prepared statements took six. Where the table is missing the row's
    /// read fails and the functions' is skipped; the first read tells the
    /// rest as before.
    ///
    /// - Throws: `DatabaseOpenError.newerSchema` for a newer version,
    ///   `.notSwipeDatabase` for any other content (another application's
    ///   tables, a `schema_version` that is not swipe's, a version swipe never wrote).
    static func identify(_ connection: PGConnection, location: String) throws -> (
        identity: Identity, installed: InstalledFunctions?
    ) {
        let (answers, failure) = try connection.flight([
            (
                """
                SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relname = $1 AND c.relkind IN ('r', 'p')
                """, ["schema_version"]
            ),
            ("SELECT application, version FROM schema_version", []),
            (functionsInstalledSQL, []),
        ])
        guard let hasVersionTable = try answers.first?.first.map({ try $0.int(0) }) else {
            throw failure ?? DatabaseOpenError.notSwipeDatabase(path: location)
        }
        if hasVersionTable == 0 {
            let relations =
                try connection.scalarInt(
                    """
                    SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = current_schema()
                    """) ?? 0
            if relations == 0 { return (.empty, nil) }
            throw DatabaseOpenError.notSwipeDatabase(path: location)
        }
        if let failure, answers.count < 2 { throw failure }
        let row = try answers[1].first.map { (try $0.text(0), try $0.int(1)) }
        guard let (application, found) = row, application == "swipe", found > 0 else {
            throw DatabaseOpenError.notSwipeDatabase(path: location)
        }
        if found > version { throw DatabaseOpenError.newerSchema(path: location, found: found, supported: version) }
        // Version 1 was never written on PostgreSQL; 2 and 3 migrate.
        if migrations.contains(where: { $0.from == found }) { return (.older(version: found), nil) }
        guard found == version else { throw DatabaseOpenError.notSwipeDatabase(path: location) }
        if let failure { throw failure }
        return (.swipe, try answers[2].first.map(installedFunctions) ?? Self.noFunctions)
    }

    /// Brings a version-2 schema made by an earlier swipe up to what
    /// `schema.postgres.sql` makes now, in the caller's transaction, with
    /// changes that swipes of either age read and write alike (so the version
    /// stays 2): `profiles.id` compared byte by byte (`COLLATE "C"`), whose
    /// unique index then serves ids in byte order. An import calls it, as a
    /// command that writes anyway; the index on `id` is rebuilt once (about a
    /// second per million profiles), and never again.
    static func bringUpToDate(_ connection: PGConnection) throws {
        let collation = try connection.scalarText(
            """
            SELECT c.collname FROM pg_catalog.pg_attribute AS a
            JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation
            WHERE a.attrelid = to_regclass($1) AND a.attname = $2
            """, .text("profiles"), .text("id"))
        if let collation, collation != "C" {
            // The analysts' views (version 7) read profiles.id, and a column
            // a view reads cannot change type: they are made again around it.
            let views =
                try connection.scalarInt(
                    "SELECT count(*) FROM pg_views WHERE viewname = $1 AND schemaname = current_schema()",
                    .text("decision_log")) ?? 0
            if views > 0 { try connection.execute("DROP VIEW match_history; DROP VIEW decision_log") }
            try connection.execute(
                """
                ALTER TABLE profiles ALTER COLUMN id TYPE text COLLATE "C"
                """)
            if views > 0 { try connection.execute(analystViews) }
        }
        // rank_stats_keep as first written counts every decision row by row,
        // a bulk import's too (quadratic for a viewer with many): today's
        // steps aside when the import says it counts them itself. Either
        // version counts a decision alike when nobody says so.
        let keep = try connection.scalarText("SELECT prosrc FROM pg_proc WHERE oid = to_regproc('rank_stats_keep')")
        if let keep, !keep.contains(bulkRankStatsSetting) { try connection.execute(rankStatsKeepFunction) }
    }

    /// The setting a bulk import of decisions turns on (`SET LOCAL`) while it
    /// inserts, so that `rank_stats_keep` leaves the counting to it.
    static let bulkRankStatsSetting = "swipe.rank_stats_in_bulk"

    /// `rank_stats_keep` exactly as schema.postgres.sql writes it, as a replacement.
    static var rankStatsKeepFunction: String {
        guard let start = sql.range(of: "CREATE FUNCTION rank_stats_keep()"),
            let end = sql.range(of: "\n$$;\n", range: start.upperBound..<sql.endIndex)
        else { preconditionFailure("schema.postgres.sql has no rank_stats_keep") }
        return orReplace(String(sql[start.lowerBound..<end.upperBound]))
    }

    /// Applies `schema.postgres.sql` in one transaction. Another process
    /// creating it at the same moment makes this attempt fail; the database
    /// is then identified again and accepted when it now holds the schema.
    /// Returns whether this call created it.
    static func create(_ connection: PGConnection, location: String) throws -> Bool {
        do {
            try connection.transaction { try connection.execute(sql) }
            return true
        } catch let error as PostgresError where error.kind == .server {
            if try identify(connection, location: location).identity == .swipe { return false }
            throw error
        }
    }

    /// Version 2 → 3 (ranking, README "Ranking"): rank_stats, its index and
    /// the triggers that keep it, exactly as schema.postgres.sql writes them
    /// (the text from its "Ranking" section on), filled from the ledger as it
    /// stands (`SQLDialect.rankStatsFromTheLedger`, as on SQLite), then the version.
    static var migrationToV3: String {
        guard let start = sql.range(of: "\n-- Ranking (README \"Ranking\")") else {
            preconditionFailure("schema.postgres.sql has no Ranking section")
        }
        return String(sql[start.lowerBound...]) + "\n" + SQLDialect.postgresql.rankStatsFromTheLedger + """
            UPDATE schema_version SET version = 3;
            """
    }

    /// Steps from version `from` to the next, in order.
    static var migrations: [(from: Int, sql: String)] {
        [
            (2, migrationToV3), (3, migrationToV4), (4, migrationToV5), (5, migrationToV6), (6, migrationToV7),
            (7, migrationToV8),
        ]
    }

    /// Version 6 → 7, views for analysts (Documentation/Insights.md, "Views
    /// for analysts"): decision_log and match_history, exactly as
    /// schema.postgres.sql writes them (its section, up to the end marker);
    /// then the version. Views copy nothing: the step is instant at any size.
    static var migrationToV7: String {
        analystViews + "UPDATE schema_version SET version = 7;\n"
    }

    /// Version 7 → 8, the ranking's fit (README "Ranking"): rank_fit and
    /// rank_fit_mean's one row (never fitted), exactly as
    /// schema.postgres.sql writes them (its section, up to the end marker);
    /// then the version. Two empty tables: instant at any size; the feed
    /// ranks by the like rates until the first refit.
    static var migrationToV8: String {
        section(
            from: "\n-- The ranking's fit (version 8; README \"Ranking\")",
            to: "-- End of the ranking's fit (version 8).")
            + "UPDATE schema_version SET version = 8;\n"
    }

    /// decision_log and match_history as schema.postgres.sql writes them.
    static var analystViews: String {
        section(
            from: "\n-- Views for analysts (version 7; Documentation/Insights.md",
            to: "-- End of views for analysts (version 7).")
    }

    /// Version 5 → 6, moderation (Documentation/Moderation.md): its tables,
    /// indexes and the log's append-only triggers, exactly as
    /// schema.postgres.sql writes them (its "Moderation" section, up to the
    /// end marker); then the version.
    static var migrationToV6: String {
        section(
            from: "\n-- Moderation (version 6; Documentation/Moderation.md)", to: "-- End of moderation (version 6).")
            + "UPDATE schema_version SET version = 6;\n"
    }

    /// Version 4 → 5, photos (Documentation/Photos.md): the photos table and
    /// its index, exactly as schema.postgres.sql writes them (its "Photos"
    /// section, up to the end marker); then the version.
    static var migrationToV5: String {
        guard let start = sql.range(of: "\n-- Photos (version 5; Documentation/Photos.md)"),
            let end = sql.range(of: "-- End of photos (version 5).", range: start.upperBound..<sql.endIndex)
        else { preconditionFailure("schema.postgres.sql has no Photos section") }
        return String(sql[start.lowerBound..<end.lowerBound]) + "UPDATE schema_version SET version = 5;\n"
    }

    /// Version 3 → 4, conversations (Documentation/REPL.md, "Conversations"): matches gain expires_at;
    /// messages and its indexes, exactly as schema.postgres.sql writes them
    /// (its "Conversations" section, up to the end marker); then the version.
    static var migrationToV4: String {
        guard let start = sql.range(of: "\n-- Conversations (version 4; Documentation/REPL.md)"),
            let end = sql.range(of: "-- End of conversations (version 4).", range: start.upperBound..<sql.endIndex)
        else { preconditionFailure("schema.postgres.sql has no Conversations section") }
        return "ALTER TABLE matches ADD COLUMN expires_at text;\n" + String(sql[start.lowerBound..<end.lowerBound])
            + "UPDATE schema_version SET version = 4;\n"
    }

    /// The decision function (`PostgresStore+Decide.swift`), exactly as
    /// schema.postgres.sql writes it (its section "The decision in one round
    /// trip", up to the end marker).
    static var decideFunction: String {
        section(from: "\n-- The decision in one round trip", to: "-- End of the decision function.")
    }

    /// The send function (`PostgresStore+Send.swift`), exactly as
    /// schema.postgres.sql writes it (its section "The message send in one
    /// round trip", up to the end marker).
    static var sendFunction: String {
        section(from: "\n-- The message send in one round trip", to: "-- End of the send function.")
    }

    /// The undo function (`PostgresStore+Undo.swift`), exactly as
    /// schema.postgres.sql writes it (its section "The undo in one round
    /// trip", up to the end marker).
    static var undoFunction: String {
        section(from: "\n-- The undo in one round trip", to: "-- End of the undo function.")
    }

    /// schema.postgres.sql from the line `start` up to `end`.
    private static func section(from start: String, to end: String) -> String {
        guard let first = sql.range(of: start), let last = sql.range(of: end, range: first.upperBound..<sql.endIndex)
        else { preconditionFailure("schema.postgres.sql has no section \(start)") }
        return String(sql[first.lowerBound..<last.lowerBound])
    }

    /// Which of the server-side functions a database holds.
    struct ServerFunctions: Equatable {
        /// `swipe_decide_2`: a decision in one round trip.
        var decide: Bool
        /// `swipe_send_2`: a message send in one round trip.
        var send: Bool
        /// `swipe_undo_1`: an undo in one round trip.
        var undo: Bool

        static let all = ServerFunctions(decide: true, send: true, undo: true)
    }

    /// Adds the server-side functions (the decision's, the send's and the undo's) to a
    /// swipe database that lacks them (made or migrated by a swipe before
    /// them) and says which the database now has. Not a version step: a
    /// function adds a way in that swipes without it never call, so the
    /// version (and what older swipes may open) stays. Two writers adding
    /// them at once queue on an advisory lock and the second finds them
    /// there. A role that may not create functions keeps what it found:
    /// the calls without their function take the step-by-step path.
    /// `installed`: what `identify` read, when it did.
    static func installFunctions(_ connection: PGConnection, installed: InstalledFunctions? = nil) throws
        -> ServerFunctions
    {
        let (found, unplanned) = try installed ?? installedFunctions(connection)
        if found == .all && unplanned.isEmpty { return found }
        do {
            try connection.transaction {
                try connection.run("SELECT pg_advisory_xact_lock($1)", .int(Self.installLock))
                let (now, unplanned) = try installedFunctions(connection)
                if !now.decide { try connection.execute(decideFunction) }
                if !now.send { try connection.execute(sendFunction) }
                if !now.undo { try connection.execute(undoFunction) }
                for name in unplanned {
                    guard let definition = definitions[name] else { continue }
                    try connection.execute(orReplace(definition))
                }
            }
            return .all
        } catch let error as PostgresError where error.sqlState == "42501" {
            return found
        }
    }

    /// Which functions the database holds, and the names of those among
    /// them (and `rank_stats_keep`) made without `SET plan_cache_mode` that
    /// this role may replace.
    private static func installedFunctions(_ connection: PGConnection) throws -> InstalledFunctions {
        try connection.statement(Self.functionsInstalledSQL).first([], installedFunctions) ?? noFunctions
    }

    /// Which functions the database holds, and those `installFunctions` would replace (its `unplanned`).
    typealias InstalledFunctions = (ServerFunctions, [String])

    /// `functionsInstalledSQL`'s row.
    private static func installedFunctions(_ row: PGRow) throws -> InstalledFunctions {
        (
            ServerFunctions(decide: try row.bool(0), send: try row.bool(1), undo: try row.bool(2)),
            (try row.optionalText(3) ?? "").split(separator: " ").map(String.init)
        )
    }

    /// `functionsInstalledSQL` without a row (no `schema_version` row).
    private static let noFunctions: InstalledFunctions = (ServerFunctions(decide: false, send: false, undo: false), [])

    /// Each function's definition as schema.postgres.sql writes it, by name.
    static var definitions: [String: String] {
        [
            "swipe_decide_2": decideFunction, "swipe_send_2": sendFunction, "swipe_undo_1": undoFunction,
            "rank_stats_keep": rankStatsKeepFunction,
        ]
    }

    /// `definition` replacing the function of its name (each line that
    /// starts `CREATE FUNCTION`): the same body (a changed body takes a new
    /// name), with what schema.postgres.sql now says around it
    /// (`SET plan_cache_mode`).
    static func orReplace(_ definition: String) -> String {
        definition.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("CREATE FUNCTION ") ? "CREATE OR REPLACE " + line.dropFirst("CREATE ".count) : line
        }.joined(separator: "\n")
    }

    /// Whether the database holds the decision function, the send function
    /// and the undo function; and which of them, and of `rank_stats_keep`,
    /// lack schema.postgres.sql's `SET plan_cache_mode = force_generic_plan`
    /// (made by a swipe before it) and are this role's to replace (only an
    /// owner may; another role's swipe works as well without it).
    ///
    /// The setting plans each of their statements (lookups of a few rows by
    /// key) once per session, not afresh with the call's values the first
    /// five times each runs: a new REPL's first likes paid for those plans
    /// (up to about a millisecond a call in the runs measured).
    ///
    /// Read from `schema_version`: locking a table makes the server take in
    /// the catalog changes other sessions committed (invalidation messages).
    /// A query naming no table, run again from its cached plan after the
    /// install lock, skipped that: it could go on answering "missing" for the
    /// functions the writer before had just added, and CREATE then failed
    /// (`twoWritersOpeningAtOnceBothGetThem` failed 2 runs in 8; 0 in 14 since).
    static let functionsInstalledSQL = """
        SELECT to_regprocedure('swipe_decide_2(text,text,text,text,text,text)') IS NOT NULL,
               to_regprocedure('swipe_send_2(text,text,text,text,text,text,text,text)') IS NOT NULL,
               to_regprocedure('swipe_undo_1(text,text,text)') IS NOT NULL,
               (SELECT string_agg(f.proname, ' ' ORDER BY f.proname) FROM pg_catalog.pg_proc AS f
                WHERE f.oid IN (to_regprocedure('swipe_decide_2(text,text,text,text,text,text)'),
                                to_regprocedure('swipe_send_2(text,text,text,text,text,text,text,text)'),
                                to_regprocedure('swipe_undo_1(text,text,text)'), to_regprocedure('rank_stats_keep()'))
                  AND NOT coalesce(f.proconfig, '{}') @> '{plan_cache_mode=force_generic_plan}'
                  AND pg_catalog.pg_has_role(f.proowner, 'USAGE'))
        FROM schema_version
        """

    /// The advisory lock that serialises installing the server-side functions.
    static let installLock = 0x7377_6970_6564_6563  // "swipedec"

    /// Brings an older swipe schema to `version` in one transaction. Another
    /// process migrating at the same moment waits on the lock of
    /// schema_version and then finds nothing left to do.
    static func migrate(_ connection: PGConnection) throws {
        try connection.transaction {
            try connection.execute("LOCK TABLE schema_version IN EXCLUSIVE MODE")
            let found = try connection.scalarInt("SELECT version FROM schema_version") ?? 0
            for step in migrations where step.from >= found {
                try connection.execute(step.sql)
            }
        }
    }
}
