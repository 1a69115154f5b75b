import Foundation
import SwipePostgres

/// The backends every store test runs on (README "Tests"): pass
/// `TestBackend.all` as a Swift Testing `arguments:` list and open the
/// test's database with `TestStores`.
///
/// PostgreSQL needs the throwaway cluster in `$SWIPE_TEST_PG` (`make test`
/// starts one). Without it the PostgreSQL cases are left out of the list,
/// with a note on standard error, except under CI=true: there they stay in
/// and fail, saying the cluster is missing (CI never skips them).
public enum TestBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    public var description: String { rawValue }

    /// The backends to run on here: both, unless PostgreSQL is unavailable
    /// outside CI.
    public static let all: [TestBackend] = {
        if PostgresTestServer.uri != nil || PostgresTestServer.isCI { return allCases }
        FileHandle.standardError.write(
            Data(
                "note: the PostgreSQL cases of the store and CLI tests are skipped: \(PostgresTestServer.missingReason)\n"
                    .utf8))
        return [.sqlite]
    }()
}

/// The PostgreSQL test cluster, as the environment names it.
public enum PostgresTestServer {
    public static let environment = ProcessInfo.processInfo.environment
    /// `$SWIPE_TEST_PG`: a URI to a server where the tests may create databases.
    public static let uri: String? = environment["SWIPE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    public static let isCI: Bool = {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }()

    static var missingReason: String {
        "SWIPE_TEST_PG is not set" + (isCI ? " under CI=true: the PostgreSQL tests must run in CI" : "")
            + "; run `make test`, or eval \"$(scripts/pg-test-cluster.sh start)\" before `swift test`"
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String { PostgresTestServer.missingReason }
    }

    /// The server's URI, or an error saying how to get one.
    public static func requireURI() throws -> String {
        guard let uri else { throw Missing() }
        return uri
    }

    /// The server's host and port as the URI names them.
    public static func hostAndPort() throws -> (host: String, port: Int) {
        let admin = try PGConnection(uri: requireURI())
        return (admin.endpoint.host, Int(admin.endpoint.port)!)
    }

    /// `uri` with its database (the path) replaced by `database`.
    public static func uri(_ uri: String, database: String) -> String {
        PostgresURI.replacingDatabase(in: uri, with: database)
    }
}
