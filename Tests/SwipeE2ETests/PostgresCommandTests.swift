import Foundation
import SwipeCore
import SwipePostgres
import Testing

/// `--db postgres://…` (and `$SWIPE_DB`) through the built binary: the
/// commands open `PostgresStore`; an unreachable server is exit 74 naming
/// host and port but never the password; an empty database is "no such
/// database" (exit 66) as a missing file is.
@Suite struct PostgresCommandTests {
    @Test func anUnreachableServerExits74NamingHostAndPortNotThePassword() throws {
        let port = unusedLocalPort()
        let uri = "postgres://swipe:hunter2secret@127.0.0.1:\(port)/swipe?connect_timeout=5"
        for (arguments, environment) in [(["history", "--as", "a", "--db", uri], [:]), (["stats"], ["SWIPE_DB": uri])] {
            let result = try SwipeBinary.run(arguments, environment: environment)
            #expect(result.status == 74, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("swipe: cannot reach the PostgreSQL server at 127.0.0.1 port \(port)"), "\(result.stderr)")
            #expect(result.stderr.contains("is the server running there?"))
            #expect(!result.stderr.contains("hunter2secret") && !result.stdout.contains("hunter2secret"))
        }
    }

    @Test(.enabled(if: PostgresCluster.available, "no PostgreSQL test cluster (SWIPE_TEST_PG)"))
    func commandsRunAgainstTheServer() throws {
        let uri = try PostgresCluster.freshDatabase()
        let missing = try SwipeBinary.run(["stats", "--db", uri])
        #expect(missing.status == 66)
        #expect(missing.stderr == "swipe: \(uri): no such database (create one with `swipe import --db \(uri) profiles.csv`)\n")

        let store = try PostgresStore(uri: uri, create: true)
        try store.upsert(Profile(id: "a", name: "Ann", age: 30))
        try store.upsert(Profile(id: "b", name: "Bob", age: 31))
        _ = try store.record(viewer: "b", profile: "a", decision: .like, via: .button)

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pg-e2e-\(UUID().uuidString)")
        try "like\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let repl = try SwipeBinary.run(["repl", "--json", "--as", "a", "--db", uri], stdin: script.path)
        #expect(repl.status == 0, "\(repl.stderr)")
        #expect(repl.stdout.contains(#""match""#), "a likes b, who liked a: \(repl.stdout)")
        let matches = try SwipeBinary.run(["matches", "--as", "a", "--format", "csv"], environment: ["SWIPE_DB": uri])
        #expect(matches.status == 0, "\(matches.stderr)")
        #expect(matches.stdout.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
                == ["b,Bob"], "\(matches.stdout)")
        #expect(try store.lastViewer() == "a", "the REPL remembered its viewer in the server's database")
        let stats = try SwipeBinary.run(["stats", "--db", uri, "--format", "json"])
        #expect(stats.stdout.contains(#""matches":1"#), "\(stats.stdout)")
    }
}

/// The throwaway cluster of `make test` (scripts/pg-test-cluster.sh).
enum PostgresCluster {
    static let uri = ProcessInfo.processInfo.environment["SWIPE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    static var available: Bool {
        uri != nil || !["", "0", "false", "no"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// A new empty database on the cluster, as a URI.
    static func freshDatabase() throws -> String {
        guard let uri else { throw PostgresError(kind: .client, message: "SWIPE_TEST_PG is not set under CI=true") }
        let name = "swipe_e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PGConnection(uri: uri)
        try admin.execute("CREATE DATABASE " + admin.quotedIdentifier(name))
        let schemeEnd = uri.range(of: "://")!.upperBound
        let rest = uri[schemeEnd...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        return String(uri[..<pathStart]) + "/" + name
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on right now.
private func unusedLocalPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
