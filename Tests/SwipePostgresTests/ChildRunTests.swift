import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// This test binary run again as a child with another environment, for what
/// a process sees only at start: PGPASSWORD, and whether SWIPE_TEST_PG and CI
/// are set.
enum ChildRun {
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs the Swift Testing tests matching `filter` in a child of this test
    /// binary, with `changes` applied to this process's environment (nil removes).
    static func run(filter: String, _ changes: [String: String?]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}

@Suite(.needsPostgres, .serialized) struct ChildRunTests {
    @Test func aPostgresTestWithoutAServerFailsUnderCIAndIsSkippedOtherwise() throws {
        let ci = try ChildRun.run(filter: "SwipePostgresTests.NotifyTests", ["SWIPE_TEST_PG": nil, "CI": "true"])
        #expect(ci.status != 0, "under CI=true a missing server must fail the run:\n\(ci.output)")
        #expect(ci.output.contains("SWIPE_TEST_PG is not set under CI=true"), "\(ci.output)")
        let local = try ChildRun.run(filter: "SwipePostgresTests.NotifyTests", ["SWIPE_TEST_PG": nil, "CI": nil])
        #expect(local.status == 0, "\(local.output)")
        #expect(
            local.output.contains("skipped: \"no PostgreSQL test cluster: SWIPE_TEST_PG is not set"), "\(local.output)")
    }

    @Test func PGPASSWORDSuppliesThePasswordTheLibpqWay() throws {
        let (host, port) = try PasswordTests.prepareRole()
        let probe = "postgres://swipe_password_test@\(host):\(port)/postgres"
        let right = try ChildRun.run(
            filter: "SwipePostgresTests.PasswordProbe",
            ["SWIPE_PG_PROBE_URI": probe, "PGPASSWORD": PasswordTests.password])
        #expect(right.status == 0, "\(right.output)")
        #expect(right.output.contains("Test connectsWithThePasswordFromTheEnvironment() passed"), "\(right.output)")
        let wrong = try ChildRun.run(
            filter: "SwipePostgresTests.PasswordProbe", ["SWIPE_PG_PROBE_URI": probe, "PGPASSWORD": "not-it"])
        #expect(wrong.status != 0, "\(wrong.output)")
        #expect(wrong.output.contains("password authentication failed"), "\(wrong.output)")
        #expect(!wrong.output.contains(PasswordTests.password))
    }
}

/// As ChildRunTests' child (SWIPE_PG_PROBE_URI set), connects with whatever
/// password PGPASSWORD holds. In an ordinary run (never skipped, so CI shows
/// no skip), holds the other half: without any password the role is refused.
@Suite(.needsPostgres) struct PasswordProbe {
    @Test func connectsWithThePasswordFromTheEnvironment() throws {
        if let probe = PostgresTestServer.environment["SWIPE_PG_PROBE_URI"] {
            let connection = try PGConnection(uri: probe)
            #expect(try connection.scalarText("SELECT current_user::text") == "swipe_password_test")
            return
        }
        let (host, port) = try PasswordTests.prepareRole()
        // A developer's own PGPASSWORD would answer.
        guard PostgresTestServer.environment["PGPASSWORD"] == nil else { return }
        let error = #expect(throws: PostgresError.self) {
            try PGConnection(
                uri: "postgres://swipe_password_test@\(host):\(port)/postgres?passfile=/nonexistent/pgpass")
        }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("no password supplied") == true, "\(String(describing: error))")
    }
}
