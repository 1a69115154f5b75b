import Foundation
import SwipeTestSupport
import Testing

/// The program dies mid-flight (kill -9) or is interrupted (Ctrl-C): the
/// database holds exactly what was committed, every acknowledged decision
/// included, and stays sound for the next command.
@Suite final class CrashRecoveryTests {
    let temporary = TemporaryFolder("swipe-crash")
    var folder: String { temporary.path }
    var db: String { folder + "/swipe.sqlite" }
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A profiles CSV of `rows` rows; the first 100 ids are the seed's
    /// (p-001…), so the import updates some profiles and inserts the rest.
    func largeCSV(rows: Int) -> String {
        var text = "id,name,age,city,bio\n"
        text.reserveCapacity(rows * 70)
        for row in 0..<rows {
            let id = row < 100 ? String(format: "p-%03d", row + 1) : "big-\(row)"
            text += "\(id),Name \(row),\(18 + row % 80),City \(row % 97),changed by the large import in row \(row)\n"
        }
        return temporary.file("large.csv", text)
    }

    func importSeed() throws {
        let result = try SwipeBinary.run(["import", "--db", db, Self.repository + "/seed/profiles.csv"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Starts a large import, waits until it has read 2 MB of its 13 MB file
    /// (so it is inside its transaction, with rows written), then sends `signal`.
    func interruptLargeImport(with signal: Int32) throws -> (status: Int32, signalled: Bool, stderr: String) {
        let csv = largeCSV(rows: 200_000)
        let child = try RunningSwipe(["import", "--db", db, "--quiet", csv], folder: folder)
        let underway = child.waitUntil { (child.readOffset(of: csv) ?? 0) >= 2_000_000 }
        #expect(underway, "the import never got 2 MB into its file")
        child.signal(signal)
        let end = child.wait()
        return (end.status, end.signalled, child.stderr)
    }

    /// After the interruption: same profiles, sound file, and the next import works.
    func expectUnchangedAndUsable(since before: (count: Int, hash: UInt64)) throws {
        #expect(try DatabaseCheck.integrity(db) == "ok")
        let after = try DatabaseCheck.profilesChecksum(db)
        #expect(after.count == before.count)
        #expect(after.hash == before.hash)
        let next = temporary.file("next.csv", "id,name,age\nafter,After,33\n")
        let result = try SwipeBinary.run(["import", "--db", db, next])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try DatabaseCheck.profilesChecksum(db).count == before.count + 1)
    }

    @Test func killDuringALargeImportLeavesTheDatabaseAsItWas() throws {
        try importSeed()
        let before = try DatabaseCheck.profilesChecksum(db)
        #expect(before.count == 241)
        let end = try interruptLargeImport(with: SIGKILL)
        #expect(end.signalled && end.status == SIGKILL)
        try expectUnchangedAndUsable(since: before)
    }

    @Test func ctrlCDuringALargeImportRollsBackAndExits130() throws {
        try importSeed()
        let before = try DatabaseCheck.profilesChecksum(db)
        let end = try interruptLargeImport(with: SIGINT)
        #expect(!end.signalled && end.status == 130)
        #expect(
            end.stderr.hasSuffix(
                "swipe: interrupted: nothing imported from \(folder)/large.csv, the database is unchanged\n"))
        try expectUnchangedAndUsable(since: before)
    }

    /// Ctrl-C during the import that would have created the
    /// database leaves no file behind, so the next command says "no such database".
    @Test func ctrlCDuringAFirstImportLeavesNoDatabaseBehind() throws {
        let end = try interruptLargeImport(with: SIGINT)
        #expect(!end.signalled && end.status == 130)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: db + suffix), "\(suffix)")
        }
        let stats = try SwipeBinary.run(["stats", "--db", db])
        #expect(stats.status == 66)
    }

    /// What `swipe history --format jsonl` holds for `viewer`: profile → (decision, decided_at, undone_at).
    func history(_ viewer: String) throws -> [String: [String]] {
        let result = try SwipeBinary.run(["history", "--db", db, "--as", viewer, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        var out: [String: [String]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            out[object["profile"] as? String ?? ""] = [
                object["decision"] as? String ?? "", object["decided_at"] as? String ?? "",
                object["undone_at"] as? String ?? "standing",
            ]
        }
        return out
    }

    @Test func killRightAfterReplAnswersKeepsEveryAcknowledgedDecision() throws {
        try importSeed()
        let child = try RunningSwipe(["repl", "--json", "--db", db, "--as", "demo"], folder: folder)
        let moves = ["like", "hate", "superlike", "drag 150 0\nrelease", "drag -180 20\nrelease", "open\nlike"]
        // More commands than will be read: the child is still deciding when it dies.
        child.send((0..<60).map { moves[$0 % moves.count] }.joined(separator: "\n") + "\n")
        var acknowledged: [String: [String]] = [:]
        while acknowledged.count < 25, let line = child.readLine() {
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            #expect(answer["ok"] as? Bool == true, "\(line)")
            if let decision = answer["decision"] as? [String: Any], let profile = decision["profile"] as? String {
                acknowledged[profile] = [
                    decision["decision"] as? String ?? "", decision["decided_at"] as? String ?? "", "standing",
                ]
            }
        }
        child.signal(SIGKILL)
        #expect(child.wait().signalled)
        #expect(acknowledged.count == 25)
        let stored = try history("demo")
        for (profile, decision) in acknowledged {
            #expect(stored[profile] == decision, "acknowledged \(profile) \(decision)")
        }
        #expect(try DatabaseCheck.integrity(db) == "ok")
    }

    @Test func killRightAfterADecisionsImportIsAcknowledgedKeepsThemAll() throws {
        try importSeed()
        let decisions = Self.repository + "/seed/decisions.csv"
        let child = try RunningSwipe(["import", "--db", db, "--decisions", decisions], folder: folder)
        let summary = child.readLine()
        if child.process.isRunning { child.signal(SIGKILL) }
        _ = child.wait()
        // 1049 lines less the header: every row inserted, none rejected.
        #expect(summary?.hasPrefix("\(decisions): 1048 inserted, 0 updated, 0 rejected") == true, "\(child.stderr)")
        let stats = try SwipeBinary.run(["stats", "--db", db])
        #expect(stats.stdout.contains("decisions      1048"), "\(stats.stdout)")
        #expect(try DatabaseCheck.integrity(db) == "ok")
    }
}
