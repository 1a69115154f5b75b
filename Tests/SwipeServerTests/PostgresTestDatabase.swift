import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// A fresh database on the throwaway test cluster (`PostgresTestServer`:
/// `SWIPE_TEST_PG`, which `make test` and scripts/pg-test-cluster.sh
/// provide) for one test, dropped afterwards. Without the cluster the test
/// is skipped, except under CI=true, where it runs and fails: CI never skips them.
final class PostgresTestDatabase: Sendable {
    let uri: String
    private let adminURI: String
    private let name: String

    init() throws {
        adminURI = try PostgresTestServer.requireURI()
        name = "swipe_serve_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        uri = PostgresTestServer.uri(adminURI, database: name)
        let connection = try PGConnection(uri: adminURI)
        try connection.execute("CREATE DATABASE " + connection.quotedIdentifier(name))
    }

    deinit {
        guard let admin = try? PGConnection(uri: adminURI), let quoted = try? admin.quotedIdentifier(name) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs when a cluster is available, or always under CI (where a missing one fails).
    static var needsPostgres: Self {
        .enabled(if: PostgresTestServer.uri != nil || PostgresTestServer.isCI,
                 "no PostgreSQL test cluster: SWIPE_TEST_PG is not set (run `make test`)")
    }
}
