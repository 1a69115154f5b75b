import Foundation
import SwipeTestSupport
import Testing

/// The same session on SQLite and on PostgreSQL prints the same bytes
/// (README "PostgreSQL": every command unchanged in behaviour): one script of
/// commands (imports, the REPL piped and in `--json`, history, matches,
/// profiles, stats, prefs, likes, block and unblock, rules, and refusals) runs
/// against a fresh database on each backend, and every step's exit status,
/// standard output and standard error must be equal once the parts that are
/// meant to differ are masked: timestamps (each run has its own clock), the
/// import's elapsed time, and the `--db` value itself.
@Suite final class BackendParityTests {
    let stores = TestStores("swipe-parity")

    /// The README's discovery example, with likes and a decision history.
    static let people = DiscoveryCommandTests.people
    static let decisions = """
        viewer,profile,decision,decided_at,via
        bea,me,like,2026-11-20T10:00:00Z,drag
        ivy,me,superlike,2026-11-21T10:00:00Z,button
        ana,me,like,2026-11-21T11:00:00Z,detail
        me,ana,like,2026-11-21T12:00:00Z,import
        cat,gil,hate,2026-11-19T09:00:00Z,

        """

    /// Each step: the arguments after `swipe` (`DB` stands for `--db`'s value)
    /// and, for the REPL, its standard input.
    static let steps: [(arguments: [String], input: String?)] = [
        (["import", "--db", "DB", "PEOPLE"], nil),
        (["import", "--db", "DB", "PEOPLE"], nil),
        (["import", "--db", "DB", "--decisions", "DECISIONS"], nil),
        (["import", "--db", "DB", "BAD"], nil),
        (["import", "--db", "DB", "--skip-invalid", "BAD"], nil),
        (["profiles", "--db", "DB"], nil),
        (["profiles", "--db", "DB", "--format", "json"], nil),
        (
            [
                "profiles", "--db", "DB", "--format", "csv", "--city", "lisboa", "--age", "25-31", "--limit", "3",
                "--offset", "1",
            ], nil
        ),
        (["profile", "--db", "DB", "ana"], nil),
        (["profile", "--db", "DB", "nobody"], nil),
        (
            ["repl", "--json", "--db", "DB", "--as", "me"],
            "deck\ndrag 60 -10\nrelease\nlike\nopen\nhate\nundo\nsuperlike\nhistory\nmatches\nlikes\ndrag x 1\n"
        ),
        (["repl", "--db", "DB", "--as", "me"], "drag 150 0\nrelease\nopen\nnope\nmatches\nprefs\n"),
        (["history", "--db", "DB", "--as", "me", "--format", "jsonl"], nil),
        (["history", "--db", "DB", "--as", "me", "--decision", "like"], nil),
        (["matches", "--db", "DB", "--as", "me", "--format", "csv"], nil),
        (["matches", "--db", "DB", "--as", "cat", "--missed"], nil),
        (["stats", "--db", "DB"], nil),
        (["stats", "--db", "DB", "--as", "me", "--format", "json"], nil),
        (["prefs", "--db", "DB", "--as", "me"], nil),
        (["prefs", "--db", "DB", "--as", "me", "--seeking", "f;m", "--age", "20-40", "--max-km", "off"], nil),
        (["prefs", "--db", "DB", "--as", "me", "--age", "50-20"], nil),
        (["likes", "--db", "DB", "--as", "me", "--format", "jsonl"], nil),
        (["block", "--db", "DB", "--as", "me", "bea"], nil),
        (["block", "--db", "DB", "--as", "me", "bea"], nil),
        (["block", "--db", "DB", "--as", "me", "me"], nil),
        (["likes", "--db", "DB", "--as", "me"], nil),
        (["unblock", "--db", "DB", "--as", "me", "bea"], nil),
        (["rules", "--db", "DB"], nil),
        (["rules", "--db", "DB", "set", "likes-per-day", "1"], nil),
        (["rules", "--db", "DB", "set", "rewind", "sometimes"], nil),
        (["repl", "--json", "--db", "DB", "--as", "gil"], "like\nlike\nundo\n"),
        (["stats", "--db", "DB"], nil),
        (["history", "--db", "DB", "--as", "ghost"], nil),
    ]

    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// Runs every step on `backend`, each outcome masked.
    func session(_ backend: TestBackend) throws -> [Outcome] {
        let folder = stores.folder
        let db = try stores.database(backend, sqlite: folder.path + "/parity.sqlite")
        let files = [
            "PEOPLE": folder.file("people.csv", Self.people),
            "DECISIONS": folder.file("decisions.csv", Self.decisions),
            "BAD": folder.file("bad.csv", "id,name,age\nzed,Zed,30\nkid,Kid,12\n"),
        ]
        return try Self.steps.map { step in
            let arguments = step.arguments.map { $0 == "DB" ? db : files[$0] ?? $0 }
            var stdin = "/dev/null"
            if let input = step.input { stdin = folder.file("input-\(UUID().uuidString).txt", input) }
            let result = try SwipeBinary.run(arguments, stdin: stdin)
            func mask(_ text: String) -> String {
                var text = text.replacingOccurrences(of: db, with: "<db>")
                for (name, path) in files { text = text.replacingOccurrences(of: path, with: "<\(name)>") }
                text = text.replacingOccurrences(
                    of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"#, with: "<time>", options: .regularExpression)
                return text.replacingOccurrences(
                    of: #" in \d+\.\d+ s"#, with: " in <elapsed>", options: .regularExpression)
            }
            return Outcome(status: result.status, stdout: mask(result.stdout), stderr: mask(result.stderr))
        }
    }

    @Test(.enabled(if: TestBackend.all.contains(.postgres), "needs the PostgreSQL test cluster (SWIPE_TEST_PG)"))
    func theSameScriptPrintsTheSameOnBothBackends() throws {
        let sqlite = try session(.sqlite)
        let postgres = try session(.postgres)
        #expect(sqlite.count == postgres.count)
        // The script means something: it imported, decided and matched.
        #expect(sqlite[0].stdout.contains("10 inserted"), "\(sqlite[0])")
        #expect(sqlite[14].stdout.contains("ana"), "\(sqlite[14])")
        for (index, (a, b)) in zip(sqlite, postgres).enumerated() {
            let step = Self.steps[index].arguments.joined(separator: " ")
            #expect(a == b, "step \(index): swipe \(step)\nSQLite: \(a)\nPostgreSQL: \(b)")
        }
    }
}
