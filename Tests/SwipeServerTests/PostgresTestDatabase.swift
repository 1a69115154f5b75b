import Foundation
import SwipePostgres
import Testing

/// A fresh database on the throwaway test cluster (`SWIPE_TEST_PG`, which
/// `make test` and scripts/pg-test-cluster.sh provide) for one test,
/// dropped afterwards. Without the cluster the test is skipped, except
/// under CI=true, where it runs and fails: CI never skips them.
final class PostgresTestDatabase: Sendable {
    static let environment = ProcessInfo.processInfo.environment
    static let serverURI: String? = environment["SWIPE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI: Bool = {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }()

    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "SWIPE_TEST_PG is not set; run `make test`, or eval \"$(scripts/pg-test-cluster.sh start)\" first"
        }
    }

    let uri: String
    private let adminURI: String
    private let name: String

    init() throws {
        guard let admin = Self.serverURI else { throw MissingServer() }
        adminURI = admin
        name = "swipe_serve_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let schemeEnd = admin.range(of: "://")!.upperBound
        let rest = admin[schemeEnd...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let query = rest[pathStart...].firstIndex(of: "?").map { String(rest[$0...]) } ?? ""
        uri = String(admin[..<pathStart]) + "/" + name + query
        let connection = try PGConnection(uri: admin)
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
        .enabled(if: PostgresTestDatabase.serverURI != nil || PostgresTestDatabase.isCI,
                 "no PostgreSQL test cluster: SWIPE_TEST_PG is not set (run `make test`)")
    }
}
