import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A version-5 database made before the decision function existed (the
/// schema without its section) gets `swipe_decide_1` when a writer opens it,
/// keeps its version (swipes without the function still open it), and its
/// decisions then run through the function with the same answers; a reader
/// adds nothing. Two writers opening it at once both end up with it.
@Suite(.needsPostgres) struct PostgresDecideInstallTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    /// The schema as a swipe before the function made it, with two people.
    func withoutTheFunction() throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(PostgresSchemaWithoutDecide.sql)
        try connection.execute(
            """
            INSERT INTO profiles (id, name, age) VALUES ('a', 'Ana', 30), ('b', 'Bo', 41);
            INSERT INTO decisions (viewer, profile, decision, via, decided_at)
            VALUES (2, 1, 'like', 'drag', '2026-11-20T10:00:00.000Z');
            """)
        #expect(try Self.hasFunction(connection) == false)
        return connection
    }

    static func hasFunction(_ connection: PGConnection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM pg_proc WHERE proname = 'swipe_decide_1'") == 1
    }

    @Test func aWriterAddsItAndTheVersionStays() throws {
        let raw = try withoutTheFunction()
        let reader = try PostgresStore(uri: database.uri, create: false, readOnly: true)
        #expect(try reader.matches(viewer: "a").isEmpty)
        #expect(try Self.hasFunction(raw) == false, "a reader writes nothing")

        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.hasFunction(raw))
        #expect(try raw.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
        let recorded = try store.record(
            viewer: "a", profile: "b", decision: .like, via: .button, at: Date(timeIntervalSince1970: 1_795_300_000))
        #expect(recorded.match == Match(profile: "b", name: "Bo", matchedAt: "2026-11-21T22:26:40.000Z"))
        #expect(
            throws: StoreError.alreadyDecided(
                viewer: "a", profile: "b", decision: .like, decidedAt: "2026-11-21T22:26:40.000Z")
        ) {
            try store.record(viewer: "a", profile: "b", decision: .hate, via: .button, at: nil)
        }
        // Opened again: found, not made twice.
        _ = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.hasFunction(raw))
    }

    @Test func twoWritersOpeningAtOnceBothGetIt() async throws {
        let raw = try withoutTheFunction()
        let uri = database.uri
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try PostgresStore(uri: uri, create: false) }
            }
            try await group.waitForAll()
        }
        #expect(try Self.hasFunction(raw))
    }
}

/// schema.postgres.sql as it was before the decision function: the same
/// text without its section.
enum PostgresSchemaWithoutDecide {
    static var sql: String {
        let full = SchemaTests.postgresSchema
        guard let start = full.range(of: "\n-- The decision in one round trip"),
            let end = full.range(of: "-- End of the decision function.\n", range: start.upperBound..<full.endIndex)
        else { preconditionFailure("schema.postgres.sql has no decision function section") }
        return String(full[..<start.lowerBound]) + "\n" + String(full[end.upperBound...])
    }
}
