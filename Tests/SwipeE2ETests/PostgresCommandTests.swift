import Foundation
import SwipeCore
import SwipePostgres
import SwipeTestSupport
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
            #expect(
                result.stderr.hasPrefix("swipe: cannot reach the PostgreSQL server at 127.0.0.1 port \(port)"),
                "\(result.stderr)")
            #expect(result.stderr.contains("is the server running there?"))
            #expect(!result.stderr.contains("hunter2secret") && !result.stdout.contains("hunter2secret"))
        }
    }

    @Test(.enabled(if: PostgresCluster.available, "no PostgreSQL test cluster (SWIPE_TEST_PG)"))
    func commandsRunAgainstTheServer() throws {
        let uri = try PostgresCluster.freshDatabase()
        let missing = try SwipeBinary.run(["stats", "--db", uri])
        #expect(missing.status == 66)
        #expect(
            missing.stderr
                == "swipe: \(uri): no such database (create one with `swipe import --db \(uri) profiles.csv`)\n")

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
        #expect(
            matches.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
                $0.split(separator: ",").prefix(2).joined(separator: ",")
            }
                == ["b,Bob"], "\(matches.stdout)")
        #expect(try store.lastViewer() == "a", "the REPL remembered its viewer in the server's database")
        let stats = try SwipeBinary.run(["stats", "--db", uri, "--format", "json"])
        #expect(stats.stdout.contains(#""matches":1"#), "\(stats.stdout)")
    }

    /// Ctrl-C while the import waits inside a statement (here for another
    /// session's lock on `profiles`, which the rows' loop cannot notice):
    /// the cancel request ends the statement at once, the import exits 130
    /// and the database is unchanged. Without it the import would wait for
    /// the lock, however long, before noticing.
    @Test(.enabled(if: PostgresCluster.available, "no PostgreSQL test cluster (SWIPE_TEST_PG)"))
    func ctrlCCancelsAStatementThatIsWaiting() throws {
        let uri = try PostgresCluster.freshDatabase()
        let folder = TemporaryFolder("swipe-pg-interrupt")
        let first = folder.file("first.csv", "id,name,age\nkeep,Keep,30\n")
        let made = try SwipeBinary.run(["import", "--db", uri, "--quiet", first])
        #expect(made.status == 0, "\(made.stderr)")

        let holder = try PGConnection(uri: uri)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE profiles IN ACCESS EXCLUSIVE MODE")
        let second = folder.file("second.csv", "id,name,age\nkeep,Changed,31\nnew,New,22\n")
        let child = try RunningSwipe(["import", "--db", uri, "--quiet", second], folder: folder.path)
        let observer = try PGConnection(uri: uri)
        let waiting = child.waitUntil {
            ((try? observer.scalarInt(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))
                ?? 0) > 0
        }
        #expect(waiting, "the import never waited for the lock: \(child.stderr)")
        child.signal(SIGINT)
        let deadline = ContinuousClock.now + .seconds(20)
        while child.process.isRunning && ContinuousClock.now < deadline { usleep(1000) }
        #expect(!child.process.isRunning, "Ctrl-C did not end an import waiting for a lock within 20 s")
        try holder.execute("ROLLBACK")
        let end = child.wait()
        #expect(!end.signalled && end.status == 130, "\(end) \(child.stderr)")
        #expect(
            child.stderr.hasSuffix("swipe: interrupted: nothing imported from \(second), the database is unchanged\n"),
            "\(child.stderr)")
        #expect(
            try observer.scalarText("SELECT string_agg(id || '=' || name, ',' ORDER BY id) FROM profiles")
                == "keep=Keep")
    }
}

/// The throwaway cluster of `make test` (scripts/pg-test-cluster.sh), as `PostgresTestServer` finds it.
enum PostgresCluster {
    static var available: Bool { PostgresTestServer.uri != nil || PostgresTestServer.isCI }

    /// A new empty database on the cluster, as a URI.
    static func freshDatabase() throws -> String {
        let uri = try PostgresTestServer.requireURI()
        let name = "swipe_e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PGConnection(uri: uri)
        try admin.execute("CREATE DATABASE " + admin.quotedIdentifier(name))
        return PostgresTestServer.uri(uri, database: name)
    }
}
