import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// PostgreSQL as deployed (Documentation/Scaling.md, Documentation/Durability.md): a cluster of its own with
/// the server's durability settings (`fsync`, `synchronous_commit` and
/// `full_page_writes` on, unlike the test cluster's speed settings), four
/// `swipe repl --json` processes liking and sending messages as fast as they
/// are answered, and the postmaster killed under that load
/// (`pg_ctl stop -m immediate`: no checkpoint, every backend gone at once),
/// then started again. Afterwards, read from the database directly:
///
/// - every decision a process was told is stored is stored, exactly once;
///   the only others stored are likes whose answer was lost with the server
///   (at most one per such failure);
/// - every message is stored exactly once under its client id: a send that
///   failed is sent again with the same id until it is answered, and the
///   ones answered are exactly the ones stored;
/// - the processes went on by themselves: each had its decisions stored
///   after the restart without being restarted, and each failure in between
///   was told in one line.
///
/// It makes and removes its own cluster (`scripts/pg-test-cluster.sh start
/// --durable`), so it runs wherever PostgreSQL's binaries are: under CI a
/// missing server fails it, never skips it.
@Suite(.needsPostgres, .serialized) final class PostgresCrashTests {
    let folder = TemporaryFolder("swipe-pgcrash")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let viewers = (0..<4).map { "v\($0)" }
    /// Everyone else: no preferences, so every viewer sees them all.
    static let others = (0..<600).map { String(format: "u%03d", $0) }
    /// Acknowledged decisions per process before the crash, and again after the restart.
    static let before = 40, after = 40

    @Test func killingThePostmasterUnderLoadLosesNothingAcknowledgedAndDoublesNothing() throws {
        let cluster = try DurableCluster()
        defer { cluster.remove() }
        let db = try swipeDatabase(on: cluster)

        let clients = try startClients(db)
        defer { for client in clients { client.finish() } }
        waitUntilGoing(clients)
        try crash(cluster, under: clients)
        try restart(cluster, resuming: clients)
        for client in clients { client.finish() }

        let check = try PGConnection(uri: db)
        for client in clients {
            expectEnded(client)
            try expectStored(client.record, of: client.viewer, in: check)
        }
    }

    /// A database `swipe` on the cluster, which must have PostgreSQL's
    /// durability settings, holding the people (`load`).
    func swipeDatabase(on cluster: DurableCluster) throws -> String {
        let admin = try PGConnection(uri: cluster.uri)
        for setting in ["fsync", "synchronous_commit", "full_page_writes"] {
            #expect(try admin.scalarText("SELECT current_setting($1)", .text(setting)) == "on", "\(setting)")
        }
        try admin.execute("CREATE DATABASE swipe")
        let db = PostgresTestServer.uri(cluster.uri, database: "swipe")
        try load(db)
        return db
    }

    /// One running client per viewer; `options` go to each `swipe repl`.
    func startClients(_ db: String, options: [String] = []) throws -> [CrashClient] {
        let clients = try Self.viewers.map {
            try CrashClient(viewer: $0, partner: "m-" + $0, db: db, options: options, folder: folder)
        }
        for client in clients { client.start() }
        return clients
    }

    /// Until every process has had `before` likes acknowledged.
    func waitUntilGoing(_ clients: [CrashClient]) {
        #expect(
            waitFor(within: 60) { clients.allSatisfy { $0.acknowledgedLikes >= Self.before } },
            "the processes did not get going: \(clients.map(\.acknowledgedLikes))")
    }

    /// Kills the postmaster and returns once every process has met the
    /// server gone (an answer that failed), so each of them has something to
    /// recover from.
    func crash(_ cluster: DurableCluster, under clients: [CrashClient]) throws {
        try cluster.crash()
        #expect(
            waitFor(within: 30) { clients.allSatisfy { $0.failures > 0 } },
            "not every process noticed the crash: \(clients.map(\.failures))")
    }

    /// Starts the server again and returns once every process, never
    /// restarted, has had `after` more likes acknowledged.
    func restart(_ cluster: DurableCluster, resuming clients: [CrashClient]) throws {
        try cluster.restart()
        let atRestart = clients.map(\.acknowledgedLikes)
        #expect(
            waitFor(within: 60) {
                zip(clients, atRestart).allSatisfy { $0.acknowledgedLikes >= $1 + Self.after }
            }, "the processes did not resume on their own: \(clients.map(\.acknowledgedLikes)) after \(atRestart)")
    }

    /// A finished process: ended well, every message through, each failure told in one line.
    func expectEnded(_ client: CrashClient) {
        let record = client.record
        #expect(record.status == 0 || record.status == 1, "\(client.viewer): exit \(record.status)")
        #expect(record.pendingSay == nil, "\(client.viewer): a message never got through")
        for failure in record.failures {
            #expect(!failure.isEmpty && !failure.contains("\n"), "\(client.viewer): not one line: \(failure)")
        }
        #expect(record.sent.count >= (Self.before + Self.after) / 4, "\(client.viewer): too few messages sent")
    }

    /// What `viewer` has stored in the database `check` is connected to,
    /// held to what its process was told: every acknowledged decision and
    /// message exactly once; besides, at most one like per answer lost with
    /// the server, and the one message still to be sent again.
    func expectStored(_ record: CrashClient.Record, of viewer: String, in check: PGConnection) throws {
        let stored = try StoredRows(of: viewer, in: check)
        let doubledDecisions = stored.decisions.filter { $0.count != 1 }.map(\.key)
        #expect(doubledDecisions.isEmpty, "\(viewer): a decision stored twice: \(doubledDecisions)")
        #expect(Set(record.likes).count == record.likes.count, "\(viewer): a card acknowledged twice")
        let storedProfiles = Set(stored.decisions.map(\.key))
        let missing = Set(record.likes).subtracting(storedProfiles)
        #expect(missing.isEmpty, "\(viewer): acknowledged, not stored: \(missing.sorted())")
        let unacknowledged = storedProfiles.subtracting(record.likes)
        #expect(
            unacknowledged.count <= record.failedLikes,
            "\(viewer): \(unacknowledged.count) stored without an answer, \(record.failedLikes) answers lost")

        let doubledMessages = stored.messages.filter { $0.count != 1 }.map(\.key)
        #expect(doubledMessages.isEmpty, "\(viewer): a message stored twice: \(doubledMessages)")
        let storedMessages = Set(stored.messages.map(\.key))
        let unanswered = storedMessages.subtracting(record.sent)
        #expect(
            Set(record.sent).isSubset(of: storedMessages)
                && unanswered.isSubset(of: Set([record.pendingSay].compactMap { $0 })),
            "\(viewer): messages answered \(record.sent.sorted()) ≠ stored \(storedMessages.sorted())")
    }

    /// The people, and each viewer matched with a partner (so it can send).
    func load(_ db: String) throws {
        let people =
            "id,name,age\n"
            + (Self.viewers + Self.viewers.map { "m-" + $0 } + Self.others)
            .map { "\($0),Name \($0),30\n" }.joined()
        let matches =
            "viewer,profile,decision,decided_at\n"
            + Self.viewers.map { "\($0),m-\($0),like,2026-11-20T10:00:00Z\nm-\($0),\($0),like,2026-11-20T10:00:01Z\n" }
            .joined()
        for arguments in [
            ["import", "--db", db, folder.file("people.csv", people)],
            ["import", "--db", db, "--decisions", folder.file("matches.csv", matches)],
            // Messages as fast as they are answered: the rule messages-per-minute is ModerationTests'.
            ["rules", "--db", db, "set", "messages-per-minute", "1000000"],
        ] {
            let result = try SwipeBinary.run(arguments)
            try #require(result.status == 0, "\(result.stderr)")
        }
    }

    /// Polls `condition` every 5 ms until it holds or `seconds` pass.
    func waitFor(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            usleep(5000)
        }
        return try condition()
    }
}

/// One viewer's rows, read from the database directly: the decisions made in
/// the REPL (via is not 'import') per profile, and the messages it sent per
/// client id, each with how many times it is stored.
struct StoredRows: Equatable {
    var decisions: [Row]
    var messages: [Row]

    struct Row: Equatable {
        var key: String
        var count: Int
    }

    init(of viewer: String, in connection: PGConnection) throws {
        decisions = try connection.query(
            """
            SELECT p.id, count(*) FROM decisions AS d JOIN profiles AS p ON p.key = d.profile
            WHERE d.viewer = (SELECT key FROM profiles WHERE id = $1) AND d.via <> 'import'
            GROUP BY p.id ORDER BY p.id
            """, .text(viewer)
        ).map { Row(key: try $0.text(0), count: try $0.int(1)) }
        messages = try connection.query(
            """
            SELECT client_id, count(*) FROM messages
            WHERE sender = (SELECT key FROM profiles WHERE id = $1) GROUP BY client_id ORDER BY client_id
            """, .text(viewer)
        ).map { Row(key: try $0.text(0), count: try $0.int(1)) }
    }
}

/// A throwaway cluster with PostgreSQL's durability settings
/// (`scripts/pg-test-cluster.sh start --durable`), crashed and restarted by the script.
/// With `standby`, its primary streams to a synchronous hot standby
/// (`start --standby`), which the crash and the restart leave running.
final class DurableCluster {
    /// The primary's.
    let uri: String
    let directory: String
    /// The standby's (read-only), with `standby`.
    let standbyURI: String?
    static let script = PostgresCrashTests.repository + "/scripts/pg-test-cluster.sh"

    init(standby: Bool = false) throws {
        let output = try Self.run(["start", standby ? "--standby" : "--durable"])
        func value(_ name: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix("export \(name)=") }.map {
                String($0.dropFirst("export \(name)=".count).dropFirst().dropLast())
            }
        }
        guard let uri = value("SWIPE_TEST_PG"), let directory = value("SWIPE_TEST_PG_DIR") else {
            throw ScriptFailure(output: output)
        }
        self.uri = uri
        self.directory = directory
        standbyURI = value("SWIPE_TEST_PG_STANDBY")
        if standby && standbyURI == nil { throw ScriptFailure(output: output) }
    }

    func crash() throws { _ = try Self.run(["crash", directory]) }
    func restart() throws { _ = try Self.run(["restart", directory]) }
    func remove() { _ = try? Self.run(["stop", directory]) }

    struct ScriptFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { "scripts/pg-test-cluster.sh failed: \(output)" }
    }

    /// Runs the script; its standard output, or `ScriptFailure` with its
    /// standard error. Both go to files, not pipes: the server the script
    /// starts outlives it, and a pipe it inherited would never reach its end.
    static func run(_ arguments: [String]) throws -> String {
        let folder = TemporaryFolder("swipe-pgcrash-script")
        let out = folder.file("stdout", ""), err = folder.file("stderr", "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScriptFailure(output: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        }
        return try String(contentsOfFile: out, encoding: .utf8)
    }
}

/// One `swipe repl --json` process driven on a thread of its own, one
/// command at a time: three likes, then a message to its partner under a
/// client id of its own; a message that failed is sent again, same id, until
/// it is answered. What it was told is kept in `record`.
final class CrashClient: @unchecked Sendable {
    struct Record {
        /// The profiles whose like was acknowledged, in order.
        var likes: [String] = []
        /// The client ids of the messages acknowledged.
        var sent: [String] = []
        /// Every failure, as the process told it.
        var failures: [String] = []
        /// Likes that failed (their outcome unknown when the server went away).
        var failedLikes = 0
        /// A message that failed and is still to be sent again.
        var pendingSay: String?
        var status: Int32 = -1
    }

    let viewer: String
    let partner: String
    private let child: RunningSwipe
    private let lock = NSLock()
    private var state = Record()
    private var stopping = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// `options` go to `swipe repl` (`--sync full`).
    init(viewer: String, partner: String, db: String, options: [String] = [], folder: TemporaryFolder) throws {
        self.viewer = viewer
        self.partner = partner
        child = try RunningSwipe(["repl", "--json", "--db", db, "--as", viewer] + options, folder: folder.path)
    }

    var record: Record { lock.withLock { state } }
    var acknowledgedLikes: Int { lock.withLock { state.likes.count } }
    var failures: Int { lock.withLock { state.failures.count } }

    func start() {
        let thread = Thread { [self] in
            drive()
            done.signal()
        }
        self.thread = thread
        thread.start()
    }

    /// Stops sending (once no message is waiting to be sent again) and waits for the process to end.
    func finish() {
        let started = lock.withLock {
            let was = !stopping && thread != nil
            stopping = true
            return was
        }
        guard started else { return }
        done.wait()
        let end = child.wait()
        lock.withLock { state.status = end.status }
    }

    private func drive() {
        var count = 0
        while true {
            let (stop, pending) = lock.withLock { (stopping, state.pendingSay) }
            if stop && pending == nil { return }
            count += 1
            let say = pending ?? (count % 4 == 0 ? "\(viewer)-\(count)" : nil)
            if let say {
                child.send("say --id \(say) \(partner) message \(say)\n")
            } else {
                child.send("like\n")
            }
            guard let line = child.readLine(within: 60),
                let answer = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else {
                lock.withLock { state.failures.append("no answer from the process") }
                return
            }
            lock.withLock {
                if let error = answer["error"] as? String {
                    state.failures.append(error)
                    if let say { state.pendingSay = say } else { state.failedLikes += 1 }
                } else if let say, answer["message"] != nil {
                    state.sent.append(say)
                    state.pendingSay = nil
                } else if let decision = answer["decision"] as? [String: Any],
                    let profile = decision["profile"] as? String
                {
                    state.likes.append(profile)
                } else {
                    state.failures.append("an answer with neither error nor decision: \(line)")
                }
            }
            // While the server is away, each command fails at once: a short
            // pause keeps the four from spinning (pacing, not waiting for anything).
            if answer["error"] != nil { usleep(10_000) }
        }
    }
}
