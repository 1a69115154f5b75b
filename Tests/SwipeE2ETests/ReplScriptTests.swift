import Foundation
import SwipeTestSupport
import Testing

/// `swipe repl` fed a script on standard input, as a program or a test would drive it.
@Suite final class ReplScriptTests {
    let temporary = TemporaryFolder("swipe-repl")
    var folder: String { temporary.path }
    let stores = TestStores()
    /// `--db`: SQLite unless the test chose its backend with `use`.
    lazy var db: String = folder + "/swipe.sqlite"

    /// Runs the test on `backend`: the SQLite file above, or a fresh PostgreSQL database.
    func use(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: folder + "/swipe.sqlite")
        try load()
    }

    /// Four profiles; `b` already likes `a` and `c`.
    func load() throws {
        let csv = folder + "/p.csv"
        // `b` already likes `a`: a's like of b makes a match. Then the ranking
        // (README "Ranking"): neither c nor d ever acted, and b liked c, so
        // c's like rate received is above d's (none): c comes before d.
        try "id,name,age,city,interests\na,Ana,30,Lisboa,jazz\nb,Bo,28,Oslo,\nc,Cy,41,,jazz\nd,Di,35,Rome,\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        try "viewer,profile,decision,decided_at\nb,a,like,2026-01-01T00:00:00.000Z\nb,c,like,2026-01-01T00:00:01.000Z\n"
            .write(toFile: folder + "/d.csv", atomically: true, encoding: .utf8)
        #expect(try SwipeBinary.run(["import", "--db", db, csv]).status == 0)
        #expect(try SwipeBinary.run(["import", "--db", db, "--decisions", folder + "/d.csv"]).status == 0)
    }

    /// Runs `swipe ARGS` with `script` as standard input.
    func repl(_ arguments: [String], script: String) throws -> SwipeBinary.Result {
        let input = folder + "/script-" + UUID().uuidString
        try script.write(toFile: input, atomically: true, encoding: .utf8)
        return try SwipeBinary.run(arguments + ["--db", db, "--as", "a"], stdin: input)
    }

    @Test("--json answers each line with one object and the decisions land in the database", arguments: TestBackend.all)
    func json(_ backend: TestBackend) throws {
        try use(backend)
        let script = "drag 60 -10\nrelease\ndrag 120 0\nrelease\n\n# the next is wrong\ndrag abc\nlike\nhistory\n"
        let result = try repl(["repl", "--json"], script: script)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == script.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        // The README's worked example: the top card at (247.5, 263.5) rotated −7.2°.
        #expect(lines[0].contains(#""x":247.5,"y":263.5,"scale":1,"rotation":-7.2"#))
        #expect(
            lines[1].contains(
                #""animations":[{"name":"spring-back","duration":0.5,"keyframes":[{"time":0,"curve":"linear","cards":["#
            ))
        // 120 > 100: b is liked by drag; b already liked a, so it is a match.
        #expect(lines[3].contains(#""decision":{"profile":"b","decision":"like","via":"drag","decided_at":"#))
        #expect(lines[3].contains(#""match":true"#))
        #expect(lines[6].hasPrefix(#"{"ok":false,"command":"drag abc","error":"drag takes two numbers"#))
        #expect(lines[7].contains(#""decision":{"profile":"c","decision":"like","via":"button""#))
        #expect(result.status == 1, "a failed command makes the exit status 1")

        let history = try SwipeBinary.run(["history", "--db", db, "--as", "a", "--format", "jsonl"])
        let rows = history.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.contains { $0.contains(#""profile":"b""#) && $0.contains(#""via":"drag""#) })
        #expect(rows.contains { $0.contains(#""profile":"c""#) && $0.contains(#""via":"button""#) })
    }

    @Test(
        "plain script mode: no prompt, only the outcome lines, status 0 when every command worked",
        arguments: TestBackend.all)
    func script(_ backend: TestBackend) throws {
        try use(backend)
        let result = try repl(
            ["repl"], script: "# a script\ndrag 150 0\nrelease\nopen\nhate\nmatches\nquit\ndrag 1 1\n")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("swipe>"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        // Exactly the outcome lines: the drag says where it got to, the rest what happened.
        // (Viewer a sees b, c, d: nothing is left to refill a slot, so no fade-in.)
        let expected = [
            "tantan · drag (+150, 0) pt · progress 1.00 · like 1.00 · nope 0.00 · rotation -18.0°",
            "↷ fly-out right 0.3 s", "♥ liked Bo (b) by drag · saved 20", "★ It's a match! Bo (b) likes you too.",
            "→ opened the detail page of Cy (c)", "← closed the detail page, back to the deck",
            "↷ button-hate left 0.8 s", "✕ noped Cy (c) by detail · saved 20", "★ b Bo · matched 20", "bye",
        ]
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(result.stdout)")
        for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix), "\(line)") }
        #expect(!result.stdout.contains("╭"), "no picture and no detail page without --picture")
    }

    @Test("--picture draws the deck (and the detail page) after each command of a script", arguments: TestBackend.all)
    func scriptWithPictures(_ backend: TestBackend) throws {
        try use(backend)
        let result = try repl(["repl", "--picture"], script: "drag 150 0\nrelease\nopen\nview full\nhate\n")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("♥ liked Bo (b) by drag"))
        #expect(result.stdout.contains("╭─ Cy, 41"))
        #expect(result.stdout.contains("[LIKE]"), "the drag's picture, stamp and all")
        #expect(result.stdout.contains("state  slot  profile"), "view full adds the pose table")
        #expect(result.stdout.contains("✕ noped Cy (c) by detail"))
    }

    @Test("bare swipe is the REPL; a failing script exits 1", arguments: TestBackend.all)
    func bare(_ backend: TestBackend) throws {
        try use(backend)
        let result = try repl([], script: "drag\nundo\n")
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: drag takes two numbers: DX DY (got nothing), e.g. drag 60 -10"))
        #expect(result.stdout.contains("error: nothing to undo"))
    }
}

/// `undo` reaches back past the session (Documentation/REPL.md): a second
/// process takes back the first one's decisions, newest first, as the
/// rewind rule allows, and the card comes back on top.
@Suite final class UndoAcrossSessionsTests {
    let script = ReplScriptTests()

    @Test(arguments: TestBackend.all) func aLaterSessionUndoesTheEarlierOnesDecisions(_ backend: TestBackend) throws {
        try script.use(backend)
        // a likes b (who liked a: a match), then passes on c.
        #expect(try script.repl(["repl", "--json"], script: "like\nnope\n").status == 0)
        let later = try script.repl(["repl", "--json"], script: "undo\nundo\nundo\nmatches\n")
        let answers = try later.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(answers.count == 4)
        #expect((answers[0]["undone"] as? [String: Any])?["profile"] as? String == "c")
        #expect((answers[0]["undone"] as? [String: Any])?["decision"] as? String == "hate")
        #expect((answers[0]["cards"] as? [[String: Any]])?.first?["profile"] as? String == "c", "back on top")
        #expect((answers[1]["undone"] as? [String: Any])?["profile"] as? String == "b")
        #expect(answers[2]["ok"] as? Bool == false)
        #expect((answers[2]["error"] as? String)?.hasPrefix("nothing to undo") == true, "\(answers[2])")
        #expect((answers[3]["matches"] as? [Any])?.isEmpty == true, "undoing the like ended the match")
        let history = try SwipeBinary.run(["history", "--db", script.db, "--as", "a", "--format", "csv"])
        // Two rows after the header, each with its undone_at (the last column) filled.
        let rows = history.stdout.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 2, "\(history.stdout)")
        #expect(rows.allSatisfy { !$0.hasSuffix(",") }, "both stamped undone: \(history.stdout)")
    }

    @Test(arguments: TestBackend.all) func theRewindRuleStillDecides(_ backend: TestBackend) throws {
        try script.use(backend)
        #expect(try script.repl(["repl", "--json"], script: "like\nnope\n").status == 0)
        #expect(try SwipeBinary.run(["rules", "--db", script.db, "set", "rewind", "off"]).status == 0)
        let later = try script.repl(["repl", "--json"], script: "undo\n")
        #expect(later.stdout.contains(#""ok":false"#))
        #expect(later.stdout.contains("rule rewind: off"), "\(later.stdout)")
    }
}
