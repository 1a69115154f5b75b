import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipePostgres

/// A version-2 PostgreSQL database (the schema as version 2 wrote it: no
/// rank_stats, no triggers, no messages, no photos, no views for analysts) opens writable, migrates to version 3 (and on) in one
/// transaction, and gets the ranking's counts from its ledger, worked out by
/// hand; read-only, it is refused as older, with nothing written.
@Suite(.needsPostgres) struct SchemaV3MigrationTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    /// Today's schema taken back to version 2, with three profiles and three
    /// decisions (one undone), as in SQLite's migration test.
    func versionTwo() throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(PostgresSchema.sql)
        try connection.execute(
            """
            DROP VIEW match_history, decision_log;
            DROP TABLE rank_fit, rank_fit_mean;
            DROP TABLE rank_stats;
            DROP FUNCTION rank_stats_keep() CASCADE;
            DROP TABLE messages;
            DROP TABLE photos;
            DROP TABLE moderators, suspensions, warnings, flags, report_resolutions, moderation_log;
            DROP FUNCTION moderation_log_refuse();
            ALTER TABLE matches DROP COLUMN expires_at;
            UPDATE schema_version SET version = 2;
            INSERT INTO profiles (id, name, age) VALUES ('a', 'Ana', 30), ('b', 'Bo', 41), ('c', 'Cy', 25);
            INSERT INTO decisions (viewer, profile, decision, via, decided_at, undone_at)
            VALUES (1, 2, 'like', 'drag', '2026-11-20T10:00:00.000Z', NULL),
                   (2, 1, 'superlike', 'button', '2026-11-20T11:00:00.000Z', NULL),
                   (1, 3, 'hate', 'detail', '2026-11-20T12:00:00.000Z', '2026-11-20T12:00:01.000Z');
            """)
        return connection
    }

    static func rankStats(_ c: PGConnection) throws -> [String] {
        try c.query(
            """
            SELECT profile::text, given::text, given_likes::text, received::text, received_likes::text,
                   coalesce(last_active_at, '-')
            FROM rank_stats ORDER BY profile
            """
        ).map { row in try (0..<6).map { try row.text($0) }.joined(separator: "|") }
    }

    @Test func versionTwoMigratesWithTheLedgersCounts() throws {
        let raw = try versionTwo()
        #expect(throws: DatabaseOpenError.olderSchema(path: database.uri, found: 2, supported: PostgresSchema.version))
        {
            try PostgresStore(uri: database.uri, create: false, readOnly: true)
        }
        #expect(try raw.scalarInt("SELECT version FROM schema_version") == 2)

        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try raw.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
        #expect(
            try Self.rankStats(raw) == [
                "1|1|1|1|1|2026-11-20T12:00:01.000Z", "2|1|1|1|1|2026-11-20T11:00:00.000Z", "3|0|0|0|0|-",
            ])
        // The triggers keep the counts from now on.
        _ = try store.record(viewer: "c", profile: "a", decision: .like, via: .import)
        let kept = try Self.rankStats(raw)
        #expect(kept[0].hasPrefix("1|1|1|2|2|") && kept[2].hasPrefix("3|1|1|0|0|"), "\(kept)")
        // Opened again: nothing left to migrate.
        _ = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.rankStats(raw).count == 3)
    }
}
