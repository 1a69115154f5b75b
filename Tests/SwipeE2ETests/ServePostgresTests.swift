import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `swipe serve --db postgres://…` run as a person would run it, against the
/// throwaway cluster (`SWIPE_TEST_PG`; under CI=true a missing one fails).
@Suite struct ServePostgresTests {
    static let environment = ProcessInfo.processInfo.environment
    static let server = environment["SWIPE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI = !["", "0", "false", "no"].contains(environment["CI"]?.lowercased() ?? "")

    let temporary = TemporaryFolder("swipe-serve-pg")

    @Test(.enabled(if: server != nil || isCI, "no PostgreSQL test cluster: SWIPE_TEST_PG is not set (run `make test`)"))
    func serveOnPostgreSQLAnswersThePageForALinkAndStopsOnSIGTERM() async throws {
        let admin = try #require(Self.server, "SWIPE_TEST_PG is not set")
        let name = "swipe_serve_e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PGConnection(uri: admin)
        try connection.execute("CREATE DATABASE " + connection.quotedIdentifier(name))
        defer {
            try? connection.execute(
                "DROP DATABASE IF EXISTS " + (try! connection.quotedIdentifier(name)) + " WITH (FORCE)")
        }
        let uri = try #require(
            admin.range(of: "/", options: .backwards).map { String(admin[..<$0.lowerBound]) + "/" + name })
        let store = try PostgresStore(uri: uri, create: true)
        try store.upsert(Profile(id: "a", name: "Ana", age: 30))

        let served = try ServeCommandTests.Served(["serve", "--db", uri, "--port", "0"], folder: temporary.path)
        try served.waitUntilServing()
        let base = "http://127.0.0.1:\(served.port)"
        #expect(try await ServeCommandTests.get(base + "/").status == 401)
        let link = try SwipeBinary.run(["link", "--db", uri, "--as", "a", "--base", base])
        #expect(link.status == 0, "\(link.stderr)")
        let page = try await ServeCommandTests.get(link.stdout.trimmingCharacters(in: .newlines))
        #expect(page.status == 200)
        #expect(served.stop() == 0, "SIGTERM stops the match relay's listener too: \(served.stderr)")
    }

    @Test func anUnreachableServerIsExit74NamingHostAndPortNotThePassword() throws {
        let result = try SwipeBinary.run(["serve", "--db", "postgres://swipe:hunter2@127.0.0.1:1/swipe", "--port", "0"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1 port 1"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
        #expect(!result.stdout.contains("serving"))
    }
}
