import Foundation
import SwipePostgres
import Testing

/// A fresh database on the test cluster (`PostgresTestServer`) for one test,
/// dropped when the value is dropped. Suites keep one as a stored property,
/// like `TemporaryFolder`.
public final class PostgresTestDatabase: Sendable {
    public let name: String
    public let uri: String
    private let adminURI: String

    public init() throws {
        adminURI = try PostgresTestServer.requireURI()
        name = "swipe_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        uri = PostgresTestServer.uri(adminURI, database: name)
        let admin = try PGConnection(uri: adminURI)
        try admin.execute("CREATE DATABASE " + admin.quotedIdentifier(name))
    }

    deinit {
        guard let admin = try? PGConnection(uri: adminURI), let quoted = try? admin.quotedIdentifier(name) else {
            return
        }
        try? admin.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
    }

    /// A new connection to this database.
    public func connect() throws -> PGConnection { try PGConnection(uri: uri) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when a cluster is available, or always under CI (where a
    /// missing one is a failure); otherwise skips it, saying why.
    public static var needsPostgres: Self {
        .enabled(
            if: PostgresTestServer.uri != nil || PostgresTestServer.isCI,
            "no PostgreSQL test cluster: SWIPE_TEST_PG is not set (run `make test`, or eval \"$(scripts/pg-test-cluster.sh start)\")"
        )
    }
}
