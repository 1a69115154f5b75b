import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// The throwaway cluster the tests run against: `make test` starts one with
/// scripts/pg-test-cluster.sh and exports its URI as SWIPE_TEST_PG.
///
/// Without SWIPE_TEST_PG a PostgreSQL test is skipped with a message saying
/// how to get one, except under CI=true, where it runs and fails: CI never
/// skips them.
enum TestServer {
    static let environment = ProcessInfo.processInfo.environment
    static let uri: String? = environment["SWIPE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI: Bool = {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }()

    /// The server's URI, or a failure that says why there is none.
    static func requireURI() throws -> String {
        guard let uri else {
            throw MissingServer()
        }
        return uri
    }

    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "SWIPE_TEST_PG is not set" + (TestServer.isCI ? " under CI=true: the PostgreSQL tests must run in CI" : "")
                + "; run `make test`, or eval \"$(scripts/pg-test-cluster.sh start)\" before `swift test`"
        }
    }

    /// `uri` with its database (the path) replaced by `database`.
    static func uri(_ uri: String, database: String) -> String { PostgresTestServer.uri(uri, database: database) }

    /// The server's host and port as the URI names them.
    static func hostAndPort() throws -> (host: String, port: Int) {
        let admin = try PGConnection(uri: requireURI())
        return (admin.endpoint.host, Int(admin.endpoint.port)!)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when a cluster is available, or always under CI (where a
    /// missing one is a failure); otherwise skips it, saying why.
    static var needsPostgres: Self {
        .enabled(
            if: TestServer.uri != nil || TestServer.isCI,
            "no PostgreSQL test cluster: SWIPE_TEST_PG is not set (run `make test`, or eval \"$(scripts/pg-test-cluster.sh start)\")")
    }
}

/// A fresh database on the test cluster for one test, dropped when the value
/// is dropped. Suites keep one as a stored property, like TemporaryFolder.
final class TestDatabase: Sendable {
    let name: String
    let uri: String
    private let adminURI: String

    init() throws {
        adminURI = try TestServer.requireURI()
        name = "swipe_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        uri = TestServer.uri(adminURI, database: name)
        let admin = try PGConnection(uri: adminURI)
        try admin.execute("CREATE DATABASE " + admin.quotedIdentifier(name))
    }

    deinit {
        guard let admin = try? PGConnection(uri: adminURI), let quoted = try? admin.quotedIdentifier(name) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
    }

    /// A new connection to this database.
    func connect() throws -> PGConnection { try PGConnection(uri: uri) }
}
