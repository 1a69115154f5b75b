import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// What a new user meets first: messages that say what is wrong and never
/// suggest what cannot help, and the small commands they expect.
@Suite final class NewUserTests {
    let temporary = TemporaryFolder("swipe-newuser")
    var db: String { temporary.path + "/swipe.sqlite" }

    func swipe(_ arguments: String..., stdin: String = "/dev/null") throws -> SwipeBinary.Result {
        try SwipeBinary.run(arguments, stdin: stdin)
    }

    func importPeople() throws {
        let csv = temporary.file(
            "people.csv",
            """
            id,name,age,city
            a,Ana,30,Lisboa
            b,Bo,28,Oslo
            c,Cy,41,lisboa
            d,Di,35,Rome
            e,Ed,19,Lisboa

            """)
        #expect(try swipe("import", "--db", db, csv).status == 0)
    }

    // MARK: import messages

    @Test(
        "a missing required column or an empty file never suggests --skip-invalid",
        arguments: [
            // Only id is required of every file (name and age only of new ids: PersonalDataTests).
            ("name,age\nX,30\n", "column id: required column is missing"),
            ("", "the file is empty"),
            ("id,name,age,colour\nx,X,30,red\n", "column colour: unknown column"),
        ])
    func wholeFileProblems(csv: String, message: String) throws {
        let path = temporary.file("whole.csv", csv)
        for extra in [[], ["--skip-invalid"]] {
            let result = try SwipeBinary.run(["import", "--db", db, path] + extra)
            #expect(result.status == 65)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("skip-invalid"), "\(result.stderr)")
        }
    }

    @Test("a ;-separated header says so and that swipe reads commas")
    func semicolonHeader() throws {
        let path = temporary.file("semi.csv", "id;name;age\nx;X;30\n")
        let result = try swipe("import", "--db", db, path)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path):1:"), "\(result.stderr)")
        #expect(result.stderr.contains("looks ;-separated") && result.stderr.contains("reads comma-separated"))
        #expect(!result.stderr.contains("unknown column"), "\(result.stderr)")
        #expect(!result.stderr.contains("skip-invalid"), "\(result.stderr)")
    }

    @Test("invalid rows still suggest --skip-invalid, which imports the rest")
    func invalidRowsSuggestSkipping() throws {
        let path = temporary.file("rows.csv", "id,name,age\nx,X,3\ny,Y,30\n")
        let refused = try swipe("import", "--db", db, path)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("rows.csv:2: column age: value \"3\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("--skip-invalid imports the valid ones"), "\(refused.stderr)")
        let skipped = try swipe("import", "--db", db, "--skip-invalid", path)
        #expect(skipped.status == 0)
        #expect(skipped.stdout.contains("1 inserted"), "\(skipped.stdout)")
    }

    @Test("swipe import - reads standard input, and names it <stdin> in messages")
    func importFromStandardInput() throws {
        let good = temporary.file("in.csv", "id,name,age\nx,X,30\ny,Y,31\n")
        let result = try swipe("import", "--db", db, "-", stdin: good)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<stdin>: 2 inserted"), "\(result.stdout)")
        let bad = temporary.file("bad.csv", "id,name,age\nz,Z,300\n")
        let refused = try swipe("import", "--db", db, "-", stdin: bad)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("<stdin>:2: column age"), "\(refused.stderr)")
        let listed = try swipe("profiles", "--db", db, "--format", "csv")
        #expect(listed.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 3)
    }

    // MARK: unclear errors

    @Test("a mistyped subcommand is named, with the nearest one (exit 64)")
    func mistypedSubcommand() throws {
        let result = try swipe("histroy")
        #expect(result.status == 64)
        #expect(result.stderr == "swipe: unknown command 'histroy'; did you mean 'history'?\n")
        #expect(!result.stderr.contains("Usage"))
        let afterOptions = try swipe("--db", db, "matchs")
        #expect(afterOptions.status == 64)
        #expect(afterOptions.stderr.contains("did you mean 'matches'?"), "\(afterOptions.stderr)")
        let far = try swipe("zzzzzz")
        #expect(far.status == 64)
        #expect(far.stderr.contains("unknown command 'zzzzzz'; the commands are repl, import"), "\(far.stderr)")
    }

    @Test("--limit -1 is a clear refusal naming the value", arguments: ["history", "profiles"])
    func negativeLimit(command: String) throws {
        try importPeople()
        let result = try swipe(command, "--db", db, "--as", "a", "--limit", "-1")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--limit takes a positive whole number (got -1)"), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test("REPL history of an unknown id says there is no such profile")
    func historyOfNobody() throws {
        try importPeople()
        let script = temporary.file("s.txt", "history nobody\nhistory b\n")
        let result = try SwipeBinary.run(["repl", "--db", db, "--as", "a"], stdin: script)
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: no profile has id \"nobody\""), "\(result.stdout)")
        #expect(result.stdout.contains("no decisions yet"), "a known profile with no decisions says so")
    }

    // MARK: conveniences

    @Test("stats --as counts one viewer's decisions, likes received and matches; --format prints one record")
    func stats() throws {
        try importPeople()
        let decisions = temporary.file(
            "d.csv",
            """
            viewer,profile,decision,decided_at
            a,b,like,2026-11-20T10:00:00.000Z
            b,a,superlike,2026-11-20T11:00:00.000Z
            a,c,hate,2026-11-20T12:00:00.000Z
            c,a,like,2026-11-20T13:00:00.000Z
            d,a,like,2026-11-20T14:00:00.000Z
            a,d,superlike,2026-11-20T15:00:00.000Z
            e,a,hate,2026-11-20T16:00:00.000Z

            """)
        #expect(try swipe("import", "--db", db, "--decisions", decisions).status == 0)
        // a decided b (like), c (hate), d (superlike); c and d like a, b superlikes a;
        // a matches b (like + superlike) and d (superlike + like), not c (a passed).
        let mine = try swipe("stats", "--db", db, "--as", "a", "--format", "json")
        #expect(
            mine.stdout == #"{"viewer":"a","decided":3,"likes_given":1,"superlikes_given":1,"hates_given":1,"#
                + #""likes_received":2,"superlikes_received":1,"matches":2,"undone":0}"# + "\n", "\(mine.stdout)")
        // The whole database: 7 decisions by 5 viewers; standing likes a→b, c→a, d→a; superlikes b→a, a→d;
        // hates a→c, e→a; matches a–b, a–d; missed: a passed on c, who likes a.
        let all = try swipe("stats", "--db", db, "--format", "csv")
        #expect(
            all.stdout == "profiles,viewers,decisions,undone,likes,superlikes,hates,matches,missed_matches\r\n"
                + "5,5,7,0,3,2,2,2,1\r\n", "\(all.stdout)")
        let table = try swipe("stats", "--db", db, "--as", "d")
        #expect(table.stdout.contains("likes received      0\n"), "\(table.stdout)")
        #expect(table.stdout.contains("likes given         1\n"), "\(table.stdout)")
        #expect(table.stdout.contains("superlikes received 1\n"), "\(table.stdout)")
        let nobody = try swipe("stats", "--db", db, "--as", "zz")
        #expect(nobody.status == 64)
        #expect(nobody.stderr.contains("\"zz\""), "\(nobody.stderr)")
    }

    @Test func version() throws {
        let result = try swipe("--version")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("swipe "), "\(result.stdout)")
        #expect(result.stdout.contains("(database schema \(Schema.version))"), "\(result.stdout)")
    }

    @Test("profiles --city --age --limit --offset pick and page in the feed's order")
    func profilesFilters() throws {
        try importPeople()
        func ids(_ arguments: String...) throws -> [String] {
            let result = try SwipeBinary.run(["profiles", "--db", db, "--format", "jsonl"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["id"] as? String ?? "?"
            }
        }
        // Lisboa in any case: a, c, e; ages 20-40: a, b, d; both: a.
        #expect(try ids("--city", "LISBOA") == ["a", "c", "e"])
        #expect(try ids("--age", "20-40") == ["a", "b", "d"])
        #expect(try ids("--age", "35") == ["d"])
        #expect(try ids("--city", "lisboa", "--age", "20-40") == ["a"])
        #expect(try ids("--limit", "2", "--offset", "1") == ["b", "c"])
        #expect(try ids("--offset", "4") == ["e"])
        let bad = try swipe("profiles", "--db", db, "--age", "40-20")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("40-20"), "\(bad.stderr)")
    }

    @Test("swipe profile ID shows the detail page, or one JSON object; an unknown id is exit 64")
    func profileDetail() throws {
        try importPeople()
        let page = try swipe("profile", "--db", db, "c")
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix("╭─ Cy, 41 · lisboa "), "\(page.stdout)")
        #expect(page.stdout.contains("│ id         c\n"))
        #expect(!page.stdout.contains("superlike"), "no REPL actions outside the REPL")
        let json = try swipe("profile", "--db", db, "c", "--format", "json")
        #expect(
            json.stdout
                == #"{"id":"c","name":"Cy","age":41,"gender":null,"city":"lisboa","bio":null,"photos":[],"interests":[],"lat":null,"lon":null,"seeking":[],"age_min":18,"age_max":120,"max_km":null}"#
                + "\n")
        let missing = try swipe("profile", "--db", db, "zz")
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no such profile: \"zz\""), "\(missing.stderr)")
    }
}
