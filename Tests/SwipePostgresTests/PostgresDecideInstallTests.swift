import Foundation
import SwipeCore
@_spi(Testing) import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// A version-5 database made before the server-side functions existed (the
/// schema without their sections) gets `swipe_decide_2`, `swipe_send_2` and
/// `swipe_undo_1` when a writer opens it, keeps its version (swipes without the functions
/// still open it), and its decisions and sends then run through them with
/// the same answers; a reader adds nothing. One made with the decision
/// function alone gets the send's; one with both, the undo's. Two writers opening it at once both end
/// up with them. A role that may not create functions keeps the
/// step-by-step path, with the same answers.
@Suite(.needsPostgres) struct PostgresDecideInstallTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    /// The schema as a swipe before the functions made it (or before the
    /// send's, `keepingDecide`), with two people.
    func withoutTheFunction(keepingDecide: Bool = false) throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(
            keepingDecide ? PostgresSchemaWithoutDecide.withoutSend : PostgresSchemaWithoutDecide.sql)
        try connection.execute(
            """
            INSERT INTO profiles (id, name, age) VALUES ('a', 'Ana', 30), ('b', 'Bo', 41);
            INSERT INTO decisions (viewer, profile, decision, via, decided_at)
            VALUES (2, 1, 'like', 'drag', '2026-11-20T10:00:00.000Z');
            """)
        #expect(try Self.hasFunction(connection) == keepingDecide)
        #expect(try Self.hasFunction(connection, "swipe_send_2") == false)
        return connection
    }

    static func hasFunction(_ connection: PGConnection, _ name: String = "swipe_decide_2") throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM pg_proc WHERE proname = $1", .text(name)) == 1
    }

    /// A match of a and b (b liked a in `withoutTheFunction`), and a send
    /// from a, its retry and its client id reused, answered as the Swift
    /// rules answer them.
    static func matchAndConverse(_ store: PostgresStore) throws {
        let at = Date(timeIntervalSince1970: 1_795_300_000)
        let recorded = try store.record(viewer: "a", profile: "b", decision: .like, via: .button, at: at)
        #expect(recorded.match == Match(profile: "b", name: "Bo", matchedAt: "2026-11-21T22:26:40.000Z"))
        let send = MessageSend(viewer: "a", profile: "b", text: " hello ", clientID: "c1", at: at)
        let message = Message(
            seq: 1, sender: "a", recipient: "b", text: "hello", clientID: "c1", sentAt: "2026-11-21T22:26:40.000Z",
            readAt: nil)
        #expect(try store.send(send) == SentMessage(message: message, isRetry: false))
        #expect(try store.send(send) == SentMessage(message: message, isRetry: true))
        #expect(throws: StoreError.messageRefused(.clientIDReused("c1"))) {
            try store.send(MessageSend(viewer: "a", profile: "b", text: "another", clientID: "c1", at: at))
        }
    }

    @Test func aWriterAddsItAndTheVersionStays() throws {
        let raw = try withoutTheFunction()
        let reader = try PostgresStore(uri: database.uri, create: false, readOnly: true)
        #expect(try reader.matches(viewer: "a").isEmpty)
        #expect(try Self.hasFunction(raw) == false, "a reader writes nothing")

        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.hasFunction(raw))
        #expect(try Self.hasFunction(raw, "swipe_send_2"))
        #expect(try Self.hasFunction(raw, "swipe_undo_1"))
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

    @Test func aDatabaseWithTheDecisionFunctionGetsTheSends() throws {
        let raw = try withoutTheFunction(keepingDecide: true)
        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.hasFunction(raw, "swipe_send_2"))
        try Self.matchAndConverse(store)
        #expect(store.sendsAnsweredOnServer == 3)
        #expect(try raw.scalarInt("SELECT version FROM schema_version") == PostgresSchema.version)
    }

    @Test func aDatabaseWithTheOtherFunctionsGetsTheUndo() throws {
        let connection = try database.connect()
        try connection.execute(PostgresSchemaWithoutDecide.withoutUndo)
        try connection.execute("INSERT INTO profiles (id, name, age) VALUES ('a', 'Ana', 30), ('b', 'Bo', 41)")
        #expect(try Self.hasFunction(connection, "swipe_undo_1") == false)
        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.hasFunction(connection, "swipe_undo_1"))
        try Self.likeAndUndo(store)
        #expect(store.undosAnsweredOnServer == 2)
    }

    /// a likes `profile` (who has not liked a) and takes it back; a second
    /// undo finds nothing standing.
    static func likeAndUndo(_ store: PostgresStore, profile: String = "b") throws {
        let at = Date(timeIntervalSince1970: 1_795_300_000)
        _ = try store.record(viewer: "a", profile: profile, decision: .like, via: .drag, at: at)
        let undone = try store.undo(viewer: "a", profile: profile, at: at.addingTimeInterval(1))
        #expect(
            undone
                == UndoneDecision(
                    viewer: "a", profile: profile, decision: .like, via: .drag, decidedAt: "2026-11-21T22:26:40.000Z",
                    undoneAt: "2026-11-21T22:26:41.000Z", unmatched: false))
        #expect(throws: StoreError.notDecided(viewer: "a", profile: profile)) {
            try store.undo(viewer: "a", profile: profile, at: nil)
        }
    }

    @Test func aRoleThatMayNotCreateFunctionsSendsStepByStep() throws {
        let raw = try withoutTheFunction()
        let role = "swipe_plain_" + UUID().uuidString.prefix(8).lowercased()
        try raw.execute(
            """
            CREATE ROLE \(role) LOGIN;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role);
            REVOKE CREATE ON SCHEMA public FROM PUBLIC;
            """)
        defer { try? raw.execute("DROP OWNED BY \(role); DROP ROLE \(role)") }
        let (host, port) = try PostgresTestServer.hostAndPort()
        let store = try PostgresStore(uri: "postgres://\(role)@\(host):\(port)/\(database.name)", create: false)
        #expect(try Self.hasFunction(raw) == false)
        #expect(try Self.hasFunction(raw, "swipe_send_2") == false)
        try Self.matchAndConverse(store)
        #expect(store.sendsAnsweredOnServer == 0)
        #expect(try Self.hasFunction(raw, "swipe_undo_1") == false)
        try raw.execute("INSERT INTO profiles (id, name, age) VALUES ('c', 'Cy', 25)")
        try Self.likeAndUndo(store, profile: "c")
        #expect(store.undosAnsweredOnServer == 0)
    }

    /// How many of the three functions and `rank_stats_keep` plan their statements once per session.
    static func plannedOnce(_ connection: PGConnection) throws -> Int? {
        try connection.scalarInt(
            """
            SELECT count(*) FROM pg_proc
            WHERE proname IN ('swipe_decide_2', 'swipe_send_2', 'swipe_undo_1', 'rank_stats_keep')
              AND proconfig @> ARRAY['plan_cache_mode=force_generic_plan']
            """)
    }

    /// The schema as written plans the functions' statements once; a database
    /// whose functions were made before that gets the setting from a writer
    /// (not from a reader), and its decisions and undos answer as before.
    @Test func functionsMadeBeforePlanningOnceGetItFromAWriter() throws {
        let raw = try database.connect()
        try raw.execute(SchemaTests.postgresSchema)
        #expect(try Self.plannedOnce(raw) == 4)
        try raw.execute(
            """
            ALTER FUNCTION swipe_decide_2(text,text,text,text,text,text) RESET plan_cache_mode;
            ALTER FUNCTION swipe_send_2(text,text,text,text,text,text,text,text) RESET plan_cache_mode;
            ALTER FUNCTION swipe_undo_1(text,text,text) RESET plan_cache_mode;
            ALTER FUNCTION rank_stats_keep() RESET plan_cache_mode;
            INSERT INTO profiles (id, name, age) VALUES ('a', 'Ana', 30), ('b', 'Bo', 41);
            """)
        #expect(try Self.plannedOnce(raw) == 0)
        _ = try PostgresStore(uri: database.uri, create: false, readOnly: true)
        #expect(try Self.plannedOnce(raw) == 0, "a reader writes nothing")
        let store = try PostgresStore(uri: database.uri, create: false)
        #expect(try Self.plannedOnce(raw) == 4)
        try Self.likeAndUndo(store)
        #expect(store.undosAnsweredOnServer == 2)
    }

    @Test func twoWritersOpeningAtOnceBothGetThem() async throws {
        let raw = try withoutTheFunction()
        let uri = database.uri
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try PostgresStore(uri: uri, create: false) }
            }
            try await group.waitForAll()
        }
        #expect(try Self.hasFunction(raw))
        #expect(try Self.hasFunction(raw, "swipe_send_2"))
    }
}

/// schema.postgres.sql as it was before the server-side functions: the same
/// text without their sections (`withoutSend`: without the send's and the
/// undo's; `withoutUndo`: without the undo's alone).
enum PostgresSchemaWithoutDecide {
    static var sql: String {
        cut(withoutSend, from: "\n-- The decision in one round trip", to: "-- End of the decision function.\n")
    }

    static var withoutSend: String {
        cut(
            withoutUndo, from: "\n-- The message send in one round trip",
            to: "-- End of the send function.\n")
    }

    static var withoutUndo: String {
        cut(SchemaTests.postgresSchema, from: "\n-- The undo in one round trip", to: "-- End of the undo function.\n")
    }

    static func cut(_ full: String, from first: String, to last: String) -> String {
        guard let start = full.range(of: first), let end = full.range(of: last, range: start.upperBound..<full.endIndex)
        else { preconditionFailure("schema.postgres.sql has no section \(first)") }
        return String(full[..<start.lowerBound]) + "\n" + String(full[end.upperBound...])
    }
}
