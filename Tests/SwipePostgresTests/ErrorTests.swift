import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// Errors carry what a person needs (SQLSTATE, the server's message, the SQL,
/// the arguments, the endpoint) and never a password.
@Suite(.needsPostgres) struct ErrorTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func aServerErrorCarriesSQLArgumentsSQLSTATEAndTheEndpoint() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE people (id text PRIMARY KEY, age int4 CHECK (age BETWEEN 18 AND 120))")
        try connection.run("INSERT INTO people VALUES ($1, $2)", .text("p-1"), .integer(30))
        let sql = "INSERT INTO people VALUES ($1, $2)"
        let duplicate = #expect(throws: PostgresError.self) { try connection.run(sql, .text("p-1"), .integer(31)) }
        #expect(duplicate?.kind == .server)
        #expect(duplicate?.sqlState == "23505")
        #expect(duplicate?.isUniqueViolation == true)
        #expect(duplicate?.constraint == "people_pkey")
        #expect(duplicate?.sql == sql)
        #expect(duplicate?.arguments == [.text("p-1"), .integer(31)])
        #expect(duplicate?.detail == "Key (id)=(p-1) already exists.")
        #expect(duplicate?.endpoint?.database == database.name)
        let text = duplicate.map(String.init(describing:)) ?? ""
        #expect(text.contains("PostgreSQL error 23505: duplicate key value violates unique constraint \"people_pkey\""))
        #expect(text.contains("in «INSERT INTO people VALUES ($1, $2)» with arguments ['p-1', 31]"))
        #expect(text.contains("on postgres@127.0.0.1:"))

        let check = #expect(throws: PostgresError.self) { try connection.run(sql, .text("p-2"), .integer(17)) }
        #expect(check?.sqlState == "23514")
        #expect(check?.constraint == "people_age_check")

        let syntax = #expect(throws: PostgresError.self) { try connection.statement("SELEC 1") }
        #expect(syntax?.sqlState == "42601")
        #expect(syntax?.sql == "SELEC 1")

        let missing = #expect(throws: PostgresError.self) { try connection.execute("DROP TABLE nowhere") }
        #expect(missing?.sqlState == "42P01")
        #expect(missing?.sql == "DROP TABLE nowhere")
        // The connection is still usable after every one of them.
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 1)
    }

    @Test func anUnreachablePortIsNamedWithItsHost() throws {
        let port = unusedLocalPort()
        let error = #expect(throws: PostgresError.self) {
            try PGConnection(uri: "postgres://someone:hunter2-secret@127.0.0.1:\(port)/db", connectTimeoutSeconds: 5)
        }
        #expect(error?.kind == .unreachable)
        #expect(error?.endpoint?.host == "127.0.0.1")
        #expect(error?.endpoint?.port == String(port))
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.hasPrefix("cannot reach the PostgreSQL server at 127.0.0.1 port \(port): "), "\(text)")
        #expect(!text.contains("hunter2"), "\(text)")
    }

    @Test func aMissingDatabaseIsARejectionNotAnUnreachableServer() throws {
        let uri = PostgresTestServer.uri(try PostgresTestServer.requireURI(), database: "no_such_database_here")
        let error = #expect(throws: PostgresError.self) { try PGConnection(uri: uri) }
        #expect(error?.kind == .rejected)
        #expect(
            error?.message.contains("database \"no_such_database_here\" does not exist") == true,
            "\(String(describing: error))")
    }

    @Test func notAPostgresURIIsRefusedBeforeConnecting() throws {
        for text in ["swipe.sqlite", "mysql://u:pw-in-uri@h/db", "host=localhost password=pw-in-uri"] {
            let error = #expect(throws: PostgresError.self) { try PGConnection(uri: text) }
            #expect(error?.kind == .client)
            #expect(error?.description.contains("pw-in-uri") == false)
        }
        let cut = #expect(throws: PostgresError.self) { try PGConnection(uri: "postgres://u:pw-in-uri@h/db\u{0}x") }
        #expect(cut?.kind == .client)
        #expect(cut?.message.hasPrefix("a PostgreSQL URI cannot hold a NUL character") == true)
        let bad = #expect(throws: PostgresError.self) {
            try PGConnection(uri: "postgres://u:pw-in-uri@h/db?nosuchoption=1")
        }
        #expect(bad?.kind == .client)
        #expect(bad?.description.contains("nosuchoption") == true, "\(String(describing: bad))")
        #expect(bad?.description.contains("pw-in-uri") == false, "\(String(describing: bad))")
    }
}

/// A password in a URI appears nowhere: not in descriptions, endpoints,
/// errors of any kind. The cluster makes one role, swipe_password_test,
/// log in with scram-sha-256 so that passwords are really checked.
@Suite(.needsPostgres, .serialized) struct PasswordTests {
    static let password = "s3cret-Pa55word"
    let folder = TemporaryFolder("swipe-pg-password")

    /// Suites that use the role run in parallel: one at a time changes it
    /// (two concurrent ALTER ROLEs fail with "tuple concurrently updated").
    static let roleLock = NSLock()

    /// Creates the role (once per cluster) with the test password.
    static func prepareRole() throws -> (host: String, port: Int) {
        try roleLock.withLock {
            let admin = try PGConnection(uri: PostgresTestServer.requireURI())
            try admin.execute(
                """
                DO $$ BEGIN CREATE ROLE swipe_password_test LOGIN;
                EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
                ALTER ROLE swipe_password_test PASSWORD 's3cret-Pa55word';
                """)
            return (admin.endpoint.host, Int(admin.endpoint.port)!)
        }
    }

    static func assertNoPassword(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains(password), "password leaked: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("s3cret"), "password leaked: \(text)", sourceLocation: sourceLocation)
    }

    @Test func redactionMasksEveryFormOfPassword() {
        let cases: [(String, String)] = [
            ("postgres://u:pw@h:5432/db", "postgres://u:***@h:5432/db"),
            ("postgresql://u:pw@h/db?sslmode=require", "postgresql://u:***@h/db?sslmode=require"),
            ("postgres://u@h/db?password=pw&application_name=x", "postgres://u@h/db?password=***&application_name=x"),
            ("postgres://u:p%40ss@h1:1,h2:2/db", "postgres://u:***@h1:1,h2:2/db"),
            ("postgres://u:p@ss@h/db", "postgres://u:***@h/db"),
            ("POSTGRES://u:pw@h/db#frag", "POSTGRES://u:***@h/db#frag"),
            ("postgres://h/db?pass%77ord=pw", "postgres://h/db?pass%77ord=***"),
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("postgres://", "postgres://"),
            ("/var/lib/swipe.sqlite", "/var/lib/swipe.sqlite"),
            ("mysql://u:pw@h/db", "mysql://u:***@h/db"),
            ("host=h password=pw dbname=d", "host=h password=*** dbname=d"),
            ("host=h PASSWORD = 'p w\\' x' dbname=d", "host=h PASSWORD = *** dbname=d"),
            ("passwords are secret", "passwords are secret"),
        ]
        for (uri, expected) in cases { #expect(PostgresURI.redacted(uri) == expected) }
        #expect(PostgresURI.isPostgres("PostgreSQL://x"))
        #expect(!PostgresURI.isPostgres("postgres:/x"))
    }

    @Test func aPasswordInTheURIConnectsAndIsShownNowhere() throws {
        let (host, port) = try Self.prepareRole()
        let uri = "postgres://swipe_password_test:\(Self.password)@\(host):\(port)/postgres"
        let connection = try PGConnection(uri: uri)
        #expect(try connection.scalarText("SELECT current_user::text") == "swipe_password_test")
        Self.assertNoPassword(connection.description)
        Self.assertNoPassword(connection.redactedURI)
        Self.assertNoPassword(String(describing: connection.endpoint))
        #expect(connection.redactedURI == "postgres://swipe_password_test:***@\(host):\(port)/postgres")
        let failure = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::int8", .text("nope")) }
        Self.assertNoPassword(String(describing: failure))
        Self.assertNoPassword(String(reflecting: failure))
    }

    @Test func aWrongPasswordIsARejectionThatDoesNotEchoIt() throws {
        let (host, port) = try Self.prepareRole()
        let wrong = "wrong-\(Self.password)"
        let error = #expect(throws: PostgresError.self) {
            try PGConnection(uri: "postgresql://swipe_password_test:\(wrong)@\(host):\(port)/postgres")
        }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("password authentication failed") == true, "\(String(describing: error))")
        Self.assertNoPassword(String(describing: error))
        Self.assertNoPassword(String(reflecting: error))
        let query = #expect(throws: PostgresError.self) {
            try PGConnection(uri: "postgres://swipe_password_test@\(host):\(port)/postgres?password=\(wrong)")
        }
        Self.assertNoPassword(String(describing: query))
        let unreachable = #expect(throws: PostgresError.self) {
            try PGConnection(
                uri: "postgres://swipe_password_test:\(Self.password)@127.0.0.1:\(unusedLocalPort())/postgres")
        }
        #expect(unreachable?.kind == .unreachable)
        Self.assertNoPassword(String(describing: unreachable))
    }

    @Test func aPassfileSuppliesThePasswordTheLibpqWay() throws {
        let (host, port) = try Self.prepareRole()
        let passfile = folder.file("pgpass", "\(host):\(port):*:swipe_password_test:\(Self.password)\n")
        chmod(passfile, 0o600)
        let connection = try PGConnection(
            uri: "postgres://swipe_password_test@\(host):\(port)/postgres?passfile=\(passfile)")
        #expect(try connection.scalarText("SELECT current_user::text") == "swipe_password_test")
        let empty = folder.file("empty-pgpass", "")
        chmod(empty, 0o600)
        let refused = #expect(throws: PostgresError.self) {
            try PGConnection(uri: "postgres://swipe_password_test@\(host):\(port)/postgres?passfile=\(empty)")
        }
        #expect(refused?.kind == .rejected)
    }
}

/// The cluster's unix socket, in the same short folder as its data.
@Suite(.needsPostgres) struct SocketTests {
    @Test func aUnixSocketURIConnectsAndNamesTheFolder() throws {
        let port = try PostgresTestServer.hostAndPort().port
        guard let folder = PostgresTestServer.environment["SWIPE_TEST_PG_DIR"] else {
            Issue.record("SWIPE_TEST_PG_DIR is not set (scripts/pg-test-cluster.sh exports it)")
            return
        }
        let connection = try PGConnection(uri: "postgresql://postgres@/postgres?host=\(folder)&port=\(port)")
        #expect(try connection.scalarInt("SELECT 1") == 1)
        #expect(connection.endpoint.host == folder)
        #expect(connection.description == "PGConnection(postgres@[\(folder)]:\(port)/postgres)")
    }
}
