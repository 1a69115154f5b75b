import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Two `swipe repl --json` processes on one database at once, on either
/// backend (`ConcurrentWritersTests` runs eight): different
/// viewers, and the same viewer twice. No "database is locked" reaches
/// anyone, no acknowledged decision is lost, never two standing decisions
/// for one viewer and profile, and the loser of a race is told why.
@Suite final class TwoSessionTests {
    let temporary = TemporaryFolder("swipe-sessions")
    var folder: String { temporary.path }
    let stores = TestStores("swipe-sessions")
    var db = ""

    /// The seed on `backend`.
    func use(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: folder + "/swipe.sqlite")
        let seed = CrashRecoveryTests.repository + "/seed/profiles.csv"
        let result = try SwipeBinary.run(["import", "--db", db, seed])
        #expect(result.status == 0, "\(result.stderr)")
        // These tests are about two processes at once, not discovery: everyone
        // sees everyone, so each viewer has all 240 cards to race for. A
        // re-import sets only its file's columns: the preferences.
        let listed = try SwipeBinary.run(["profiles", "--db", db, "--format", "jsonl"])
        let rows = listed.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let id = object["id"] as? String, let name = object["name"] as? String, let age = object["age"] as? Int
            else { return nil }
            func quoted(_ field: String) -> String { "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            return "\(quoted(id)),\(quoted(name)),\(age),,18,120,\n"
        }
        #expect(rows.count == 241)
        let open = temporary.file("open.csv", "id,name,age,seeking,age_min,age_max,max_km\n" + rows.joined())
        let widened = try SwipeBinary.run(["import", "--db", db, open])
        #expect(widened.status == 0, "\(widened.stderr)")
    }

    struct Session {
        var acknowledged: [String] = []
        var errors: [String] = []
        var answers = 0
        var stderr = ""
    }

    /// Runs one REPL per viewer at once, each given `commands` likes, and
    /// collects what each acknowledged.
    func runAtOnce(viewers: [String], commands: Int) throws -> [Session] {
        let script = temporary.file("likes.txt", String(repeating: "like\n", count: commands))
        let children = try viewers.map {
            try RunningSwipe(["repl", "--json", "--db", db, "--as", $0], inputFile: script, folder: folder)
        }
        return try children.map { child in
            var session = Session()
            while let line = child.readLine() {
                session.answers += 1
                let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                if let decision = answer["decision"] as? [String: Any] {
                    session.acknowledged.append(decision["profile"] as? String ?? "")
                } else if let error = answer["error"] as? String {
                    session.errors.append(error)
                }
            }
            _ = child.wait()
            session.stderr = child.stderr
            return session
        }
    }

    /// Each profile's standing decisions by `viewer`, from `swipe history`.
    func standing(_ viewer: String) throws -> [String] {
        let result = try SwipeBinary.run(["history", "--db", db, "--as", viewer, "--format", "jsonl"])
        return result.stdout.split(separator: "\n").compactMap { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return object?["undone_at"] is NSNull ? object?["profile"] as? String : nil
        }
    }

    @Test(arguments: TestBackend.all) func differentViewersAtOnce(_ backend: TestBackend) throws {
        try use(backend)
        let sessions = try runAtOnce(viewers: ["p-001", "p-002"], commands: 60)
        for (viewer, session) in zip(["p-001", "p-002"], sessions) {
            #expect(session.answers == 60)
            #expect(session.errors == [])
            #expect(!session.stderr.contains("locked"))
            #expect(Set(try standing(viewer)) == Set(session.acknowledged))
            #expect(session.acknowledged.count == 60)
        }
    }

    @Test(arguments: TestBackend.all) func theSameViewerTwiceAtOnce(_ backend: TestBackend) throws {
        try use(backend)
        let sessions = try runAtOnce(viewers: ["demo", "demo"], commands: 40)
        let acknowledged = sessions.flatMap(\.acknowledged)
        // Each card is decided once: by whichever session got there first.
        #expect(Set(acknowledged).count == acknowledged.count)
        let stored = try standing("demo")
        #expect(Set(stored).count == stored.count)
        #expect(Set(stored) == Set(acknowledged))
        for session in sessions {
            #expect(session.answers == 40)
            #expect(!session.stderr.contains("locked"))
            for error in session.errors {
                #expect(!error.contains("locked"))
                #expect(error.hasPrefix("demo already decided like on p-"), "\(error)")
            }
        }
    }

    /// Sends `command` to a `repl --json` child and parses its one answer.
    func ask(_ child: RunningSwipe, _ command: String) throws -> [String: Any] {
        child.send(command + "\n")
        let line = try #require(child.readLine(), "no answer to \(command): \(child.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The profile on top of the deck in a JSON answer.
    func top(_ answer: [String: Any]) -> String? {
        ((answer["cards"] as? [[String: Any]])?.first { $0["state"] as? String == "first" })?["profile"] as? String
    }

    @Test(arguments: TestBackend.all) func theLoserOfARaceDealsOnWithACardNeitherSessionDecided(_ backend: TestBackend)
        throws
    {
        try use(backend)
        let arguments = ["repl", "--json", "--db", db, "--as", "demo"]
        let winner = try RunningSwipe(arguments, folder: folder)
        let loser = try RunningSwipe(arguments, folder: folder)
        defer { _ = winner.wait(); _ = loser.wait() }
        let contested = try #require(top(try ask(loser, "deck")))
        #expect(top(try ask(winner, "deck")) == contested)

        let won = try ask(winner, "like")
        #expect((won["decision"] as? [String: Any])?["profile"] as? String == contested)
        let lost = try ask(loser, "like")
        #expect(lost["ok"] as? Bool == false)
        let error = try #require(lost["error"] as? String)
        #expect(error.hasPrefix("demo already decided like on \(contested) at "), "\(error)")
        #expect(error.hasSuffix(" (in another session); that card leaves the deck"), "\(error)")
        // The loser's new top card is the winner's next one, which neither has decided.
        let next = try #require(top(lost))
        #expect(next != contested)
        #expect(next == top(won))
        #expect(try standing("demo") == [contested])

        // Without a reload the loser decides that next card, and nothing is doubled.
        let decided = try ask(loser, "hate")
        #expect((decided["decision"] as? [String: Any])?["profile"] as? String == next, "\(decided)")
        let stored = try standing("demo")
        #expect(Set(stored) == [contested, next])
        #expect(stored.count == 2)
    }
}
