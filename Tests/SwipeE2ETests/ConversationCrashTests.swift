import Foundation
import SwipeTestSupport
import Testing

/// Exactly once under kill -9 (Documentation/REPL.md, "Conversations"), on each backend: a REPL in JSON
/// mode sends messages, each with its client id; it is killed mid-flight;
/// a new process sends every one of them again, with the same ids. Every
/// message acknowledged before the kill is stored once, as acknowledged; the
/// retries store the rest once; the conversation is 1…N with no gap.
@Suite final class ConversationCrashTests {
    let temporary = TemporaryFolder("swipe-chat-crash")
    let stores = TestStores()

    @Test(arguments: TestBackend.all) func killedSendsRetriedAreStoredExactlyOnce(_ backend: TestBackend) throws {
        let folder = temporary.path
        let db = try stores.database(backend, sqlite: folder + "/swipe.sqlite")
        let profiles = temporary.file("people.csv", "id,name,age\nme,Mo,30\nana,Ana,28\n")
        let decisions = temporary.file(
            "decisions.csv",
            """
            viewer,profile,decision,decided_at
            me,ana,like,2026-11-20T10:00:00Z
            ana,me,like,2026-11-20T11:00:00Z

            """)
        // 200 sends at once to one person: the rule messages-per-minute is ModerationTests'.
        for arguments in [
            ["import", "--db", db, profiles], ["import", "--db", db, "--decisions", decisions],
            ["rules", "--db", db, "set", "messages-per-minute", "1000000"],
        ] {
            let result = try SwipeBinary.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let count = 200
        let lines = (0..<count).map { "say --id crash-\($0) ana message number \($0)" }.joined(separator: "\n") + "\n"

        let child = try RunningSwipe(["repl", "--json", "--db", db, "--as", "me"], folder: folder)
        child.send(lines)
        var acknowledged: [String: (seq: Int, sentAt: String)] = [:]
        while acknowledged.count < 40, let line = child.readLine() {
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            #expect(answer["ok"] as? Bool == true, "\(line)")
            if let message = answer["message"] as? [String: Any], let id = message["client_id"] as? String {
                acknowledged[id] = (message["seq"] as? Int ?? -1, message["sent_at"] as? String ?? "")
            }
        }
        child.signal(SIGKILL)
        #expect(child.wait().signalled)
        #expect(acknowledged.count == 40)

        // The restart: every send again, same ids.
        let input = temporary.file("retries.txt", lines)
        let retry = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "me"], stdin: input)
        #expect(retry.status == 0, "\(retry.stderr)")
        var retried = 0
        for line in retry.stdout.split(separator: "\n") {
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            guard let message = answer["message"] as? [String: Any], let id = message["client_id"] as? String else {
                Issue.record("no message in \(line)")
                continue
            }
            if let before = acknowledged[id] {
                #expect(answer["retry"] as? Bool == true, "\(id) was acknowledged before the kill")
                #expect(message["seq"] as? Int == before.seq && message["sent_at"] as? String == before.sentAt)
            }
            if answer["retry"] as? Bool == true { retried += 1 }
        }
        #expect(retried >= 40)

        let stored = try SwipeBinary.run(["messages", "--db", db, "--as", "ana", "me", "--format", "jsonl"])
        let rows = try stored.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let ids = rows.compactMap { $0["client_id"] as? String }
        #expect(
            ids.count == count && Set(ids).count == count,
            "every send stored once: \(ids.count) rows, \(Set(ids).count) ids")
        #expect(Set(ids) == Set((0..<count).map { "crash-\($0)" }))
        #expect(rows.compactMap { $0["seq"] as? Int } == Array(1...count), "the store's order, no gap")
        for row in rows {
            let id = row["client_id"] as? String ?? ""
            #expect(row["text"] as? String == "message number " + id.dropFirst("crash-".count))
        }
        if backend == .sqlite { #expect(try DatabaseCheck.integrity(db) == "ok") }
    }
}
