import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// `--sync full` as deployed: `synchronous_commit = remote_apply` on a
/// primary with a synchronous streaming standby of PostgreSQL's own
/// (`scripts/pg-test-cluster.sh start --standby`), the same four processes
/// and the same crash as `killingThePostmasterUnderLoad…`. What remote_apply
/// promises is that an acknowledged commit is already visible on the
/// standby, so when the primary dies:
///
/// - the standby, read at once (no waiting for it to catch up), holds every
///   decision and message a process was told is stored, exactly once, and
///   nothing else but what an answer lost with the server may have stored;
/// - after the restart, the processes went on by themselves, the primary
///   holds what the first test holds it to, and the standby the same rows.
///
/// That the processes' commits wait for the standby to *apply* them, not
/// only to flush them (`on` would), is checked under load: with replay
/// paused on the standby, every process's commit stays waiting (`SyncRep`)
/// after the standby has flushed the WAL that holds it.
extension PostgresCrashTests {
    @Test func withSyncFullEveryAcknowledgedWriteIsOnTheStandbyWhenThePrimaryDies() throws {
        let cluster = try DurableCluster(standby: true)
        defer { cluster.remove() }
        let db = try swipeDatabase(on: cluster)
        let standbyDB = PostgresTestServer.uri(try #require(cluster.standbyURI), database: "swipe")
        let primary = try PGConnection(uri: cluster.uri)
        // The database reaches the standby once it has replayed its creation.
        var connected: PGConnection?
        #expect(
            waitFor(within: 10) {
                connected = try? PGConnection(uri: standbyDB); return connected != nil
            })
        let standby = try #require(connected, "no database swipe on the standby")
        #expect(try standby.scalarText("SELECT pg_is_in_recovery()::text") == "true")
        #expect(try standby.scalarText("SELECT current_setting('hot_standby')") == "on")

        let clients = try startClients(db, options: ["--sync", "full"])
        defer { for client in clients { client.finish() } }
        #expect(
            waitFor(within: 60) { clients.allSatisfy { $0.acknowledgedLikes > 0 } },
            "the processes did not get going: \(clients.map(\.acknowledgedLikes))")
        try expectCommitsWaitForTheStandbyToApply(primary: primary, standby: standby)
        waitUntilGoing(clients)
        try crash(cluster, under: clients)

        // The primary is gone: what was acknowledged must be on the standby already.
        for client in clients {
            try expectStored(client.record, of: client.viewer, in: standby)
        }

        try restart(cluster, resuming: clients)
        #expect(try syncState(PGConnection(uri: cluster.uri)) == "streaming sync")
        for client in clients { client.finish() }
        let check = try PGConnection(uri: db)
        for client in clients {
            expectEnded(client)
            try expectStored(client.record, of: client.viewer, in: check)
        }
        // Every commit was applied there before it was answered; polled all
        // the same, for a last one that was not answered.
        let caughtUp = try waitFor(within: 10) {
            try Self.viewers.allSatisfy { try StoredRows(of: $0, in: standby) == StoredRows(of: $0, in: check) }
        }
        #expect(caughtUp, "the standby holds other rows than the primary")
    }

    /// The precondition that gives the test its meaning, as the processes'
    /// own sessions show it: the standby is synchronous, and their commits
    /// wait for it to apply them (`remote_apply`), not only to flush them.
    /// With replay paused there, the four sessions come to a standstill:
    /// each waits on its commit (`SyncRep`), or on a lock such a commit
    /// still holds (they like the same people). Once the standby has flushed
    /// all WAL written by then, which would release a commit under `on`,
    /// each of those commits still waits, the same statement (same backend,
    /// same start). Replay resumes afterwards.
    func expectCommitsWaitForTheStandbyToApply(primary: PGConnection, standby: PGConnection) throws {
        #expect(try syncState(primary) == "streaming sync")
        try standby.query("SELECT pg_wal_replay_pause()")
        defer { _ = try? standby.query("SELECT pg_wal_replay_resume()") }
        /// The processes' sessions that wait: on the standby ("pid start"), and behind a lock.
        func waiting() throws -> (commits: Set<String>, locked: Int) {
            let rows = try primary.query(
                """
                SELECT pid || ' ' || query_start, wait_event_type, wait_event FROM pg_stat_activity
                WHERE datname = 'swipe' AND application_name = 'swipe' AND state = 'active'
                """
            ).map { (try $0.text(0), try $0.optionalText(1), try $0.optionalText(2)) }
            return (Set(rows.filter { $0.2 == "SyncRep" }.map(\.0)), rows.filter { $0.1 == "Lock" }.count)
        }
        var held: (commits: Set<String>, locked: Int) = ([], 0)
        #expect(
            try waitFor(within: 20) {
                held = try waiting()
                return !held.commits.isEmpty && held.commits.count + held.locked == Self.viewers.count
            },
            "the processes did not all stop behind the paused standby: \(held.commits.sorted()), \(held.locked) behind a lock"
        )
        let written = try #require(try primary.scalarText("SELECT pg_current_wal_lsn()::text"))
        #expect(
            try waitFor(within: 20) {
                try primary.scalarText(
                    "SELECT (flush_lsn >= $1::pg_lsn)::text FROM pg_stat_replication", .text(written)) == "true"
            }, "the standby did not flush the WAL up to \(written)")
        let still = try waiting().commits
        #expect(
            !held.commits.isEmpty && held.commits.isSubset(of: still),
            "commits flushed on the standby were answered before it applied them: \(held.commits.subtracting(still).sorted())"
        )
    }

    /// The standby as the primary sees it: "streaming sync" when it is a synchronous one.
    func syncState(_ primary: PGConnection) throws -> String? {
        try primary.scalarText("SELECT state || ' ' || sync_state FROM pg_stat_replication")
    }
}
