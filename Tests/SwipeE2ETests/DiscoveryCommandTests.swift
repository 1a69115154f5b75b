import Foundation
import SwipeTestSupport
import Testing

/// Discovery end to end through the built binary (README "Discovery"): the
/// README's worked example in JSON mode, the command-line verbs, and bad
/// input refused with a message naming it, changing nothing.
@Suite final class DiscoveryCommandTests {
    let temporary = TemporaryFolder("swipe-discovery")
    let stores = TestStores()
    /// `--db`: SQLite unless the test chose its backend with `use`.
    lazy var db: String = temporary.path + "/swipe.sqlite"

    /// Runs the test on `backend`: the SQLite file above, or a fresh PostgreSQL database.
    func use(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
    }

    /// The README's worked example: Mo (m, 30, Lisboa) seeks women 25–35 within 50 km.
    static let people = """
        id,name,age,gender,city,lat,lon,seeking,age_min,age_max,max_km
        me,Mo,30,m,Lisboa,38.72,-9.14,f,25,35,50
        ana,Ana,28,f,Lisboa,38.71,-9.13,m,,,
        bea,Bea,33,f,Sintra,38.80,-9.38,,,,
        cat,Cat,40,f,Lisboa,38.72,-9.14,,,,
        dia,Dia,29,f,Porto,41.15,-8.61,,,,
        eva,Eva,26,f,Lisboa,38.73,-9.15,f,,,
        fay,Fay,31,f,Lisboa,38.70,-9.16,,20,28,
        gil,Gil,30,m,Lisboa,38.72,-9.14,,,,
        hel,Hel,34,f,,,,,,,
        ivy,Ivy,27,f,Lisboa,38.74,-9.10,,,,

        """

    func load() throws {
        let profiles = temporary.file("people.csv", Self.people)
        let likes = temporary.file(
            "likes.csv",
            """
            viewer,profile,decision,decided_at
            bea,me,like,2026-11-20T10:00:00Z
            ivy,me,superlike,2026-11-21T10:00:00Z

            """)
        for arguments in [["import", "--db", db, profiles], ["import", "--db", db, "--decisions", likes]] {
            let result = try SwipeBinary.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// Runs `lines` through `swipe repl --json --as me`; one object per line.
    func repl(_ lines: [String]) throws -> [[String: Any]] {
        let script = temporary.file("script.txt", lines.joined(separator: "\n") + "\n")
        let result = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "me"], stdin: script)
        let answers = result.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        #expect(answers.count == lines.count, "\(result.stdout)\n\(result.stderr)")
        return answers
    }

    static func deck(_ answer: [String: Any]) -> [String] {
        (answer["cards"] as? [[String: Any]] ?? []).compactMap { $0["profile"] as? String }
    }

    @Test(arguments: TestBackend.all) func theWorkedExample(_ backend: TestBackend) throws {
        try use(backend)
        try load()
        #expect(try SwipeBinary.run(["rules", "--db", db, "set", "likes-per-day", "1"]).status == 0)
        let a = try repl([
            "deck", "prefs age 25-30", "block ana", "likes", "like", "unmatch ivy", "matches", "undo", "like",
            "prefs age 25-35", "like", "prefs", "drag 150 0", "release", "deck",
        ])
        // Worked by hand: cat is 40, dia 275 km away, eva seeks women, fay wants
        // 20–28, gil is a man, hel has no place; ivy superliked, bea liked, ana is the rest.
        #expect(Self.deck(a[0]) == ["ivy", "bea", "ana"])
        // Bea is 33: out of 25–30, she leaves the deck undecided.
        #expect(Self.deck(a[1]) == ["ivy", "ana"])
        #expect(a[1]["withdrawn"] as? [String] == ["bea"])
        #expect(Self.deck(a[2]) == ["ivy"])
        let likes = (a[3]["likes"] as? [[String: Any]] ?? []).map { "\($0["profile"]!):\($0["decision"]!)" }
        #expect(likes == ["ivy:superlike", "bea:like"])
        #expect(a[4]["match"] as? Bool == true)
        #expect(a[5]["ok"] as? Bool == true)
        #expect((a[6]["matches"] as? [Any])?.isEmpty == true)
        #expect(Self.deck(a[7]) == ["ivy"])
        // Unmatch is final: the same like again makes no match.
        #expect(a[8]["match"] as? Bool == false)
        // Wider again: bea is dealt again; one like a day is used up.
        #expect(Self.deck(a[9]) == ["bea"])
        #expect(a[10]["ok"] as? Bool == false)
        #expect((a[10]["error"] as? String)?.hasPrefix("no likes left until 20") == true, "\(a[10])")
        #expect(Self.deck(a[10]).first == nil || Self.deck(a[10]) == ["bea"])
        let prefs = a[11]["preferences"] as? [String: Any]
        #expect(prefs?["age_min"] as? Int == 25 && prefs?["age_max"] as? Int == 35 && prefs?["max_km"] as? Int == 50)
        // A drag past the threshold is refused the same way, and springs back.
        #expect((a[13]["error"] as? String)?.hasPrefix("no likes left until") == true, "\(a[13])")
        let top = (a[14]["cards"] as? [[String: Any]])?.first { $0["state"] as? String == "first" }
        #expect(top?["profile"] as? String == "bea")
        #expect(top?["x"] as? Double == 187.5 && a[14]["progress"] as? Double == 0, "\(a[14])")
        // The refused like changed nothing: bea is still undecided.
        let history = try SwipeBinary.run(["history", "--db", db, "--as", "me", "--format", "csv"])
        #expect(!history.stdout.contains("bea"))
    }

    @Test(arguments: TestBackend.all) func badREPLInputIsRefusedAndChangesNothing(_ backend: TestBackend) throws {
        try use(backend)
        try load()
        let a = try repl([
            "prefs age 40-30", "prefs km -3", "prefs km x", "prefs location 91 0", "prefs seeking",
            "block", "block me", "block nobody", "unblock ivy", "unmatch ivy", "report ivy", "prefs",
        ])
        let errors = a.prefix(11).map { $0["error"] as? String ?? "(ok)" }
        #expect(errors[0].contains("\"40-30\""))
        #expect(errors[1].contains("\"-3\""))
        #expect(errors[2].contains("\"x\""))
        #expect(errors[3].contains("\"91 0\""))
        #expect(errors[4].contains("prefs seeking takes"))
        #expect(errors[5].contains("block takes a profile id"))
        #expect(errors[6] == "me cannot block themself")
        #expect(errors[7] == "no profile has id \"nobody\"")
        #expect(errors[8] == "me has not blocked ivy")
        #expect(errors[9] == "me and ivy have no match to end")
        #expect(errors[10].contains("report takes a profile id and a reason"))
        let prefs = a[11]["preferences"] as? [String: Any]
        #expect(prefs?["age_min"] as? Int == 25 && prefs?["age_max"] as? Int == 35)
        #expect(prefs?["seeking"] as? [String] == ["f"])
        #expect(Self.deck(a[11]) == ["ivy", "bea", "ana"])
    }

    @Test(arguments: TestBackend.all) func commandLineVerbs(_ backend: TestBackend) throws {
        try use(backend)
        try load()
        let bad = try SwipeBinary.run(["prefs", "--db", db, "--as", "me", "--age", "40-30"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("\"40-30\""))
        let set = try SwipeBinary.run([
            "prefs", "--db", db, "--as", "me", "--max-km", "off", "--seeking", "F; M",
            "--format", "csv",
        ])
        #expect(
            set.stdout == "id,seeking,age_min,age_max,max_km,lat,lon\r\nme,f;m,25,35,,38.72,-9.14\r\n", "\(set.stderr)")
        #expect(try SwipeBinary.run(["block", "--db", db, "--as", "ivy", "me"]).status == 0)
        #expect(try SwipeBinary.run(["block", "--db", db, "--as", "ivy", "me"]).stderr.contains("already blocked"))
        let likes = try SwipeBinary.run(["likes", "--db", db, "--as", "me", "--format", "csv"])
        #expect(likes.stdout == "profile,name,decision,decided_at\r\nbea,Bea,like,2026-11-20T10:00:00.000Z\r\n")
        #expect(try SwipeBinary.run(["unblock", "--db", db, "--as", "ivy", "me"]).status == 0)
        let report = try SwipeBinary.run(["report", "--db", db, "--as", "me", "gil", "fake", "profile"])
        #expect(report.status == 0, "\(report.stderr)")
        let reports = try SwipeBinary.run(["reports", "--db", db, "--format", "jsonl"])
        #expect(reports.stdout.contains(#""reporter":"me","reported":"gil","reason":"fake profile""#))
        let rules = try SwipeBinary.run(["rules", "--db", db, "set", "rewind", "sometimes"])
        #expect(rules.status == 64)
        // A mistyped rule or value gets the nearest one (issue 24), and changes nothing.
        let typo = try SwipeBinary.run(["rules", "--db", db, "set", "likes-per-dya", "3"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasSuffix("; did you mean \"rules set likes-per-day 3\"?\n"), "\(typo.stderr)")
        let value = try SwipeBinary.run(["rules", "--db", db, "set", "rewind", "lats"])
        #expect(value.status == 64)
        #expect(value.stderr.hasSuffix("; did you mean \"rules set rewind last\"?\n"), "\(value.stderr)")
        #expect(
            try SwipeBinary.run(["rules", "--db", db, "--format", "csv"]).stdout
                == "rule,value\r\nlikes-per-day,off\r\nsuperlikes-per-day,off\r\nrewind,any\r\n"
                + "first-move,anyone\r\nmatch-expiry,off\r\nfirst-messages-per-day,off\r\nevidence-days,90\r\nmessages-per-minute,10\r\n"
        )
        // A southern, western place begins with a minus: a value, never an option (issue 36, defect 9).
        let south = try SwipeBinary.run([
            "prefs", "--db", db, "--as", "me", "--location", "-33.9,-18.4", "--format", "csv",
        ])
        #expect(south.status == 0, "\(south.stderr)")
        #expect(south.stdout.hasSuffix(",-33.9,-18.4\r\n"), "\(south.stdout)")
    }

    @Test(arguments: TestBackend.all) func rewindRulesRefuseWhatTheyForbid(_ backend: TestBackend) throws {
        try use(backend)
        try load()
        #expect(try SwipeBinary.run(["rules", "--db", db, "set", "rewind", "passes"]).status == 0)
        let a = try repl(["like", "undo", "hate", "undo"])
        #expect(a[1]["error"] as? String == "only a pass can be taken back, not a like (rule rewind: passes)")
        #expect(a[3]["ok"] as? Bool == true)
        #expect(try SwipeBinary.run(["rules", "--db", db, "set", "rewind", "last"]).status == 0)
        let b = try repl(["hate", "hate", "undo", "undo"])
        #expect(b[2]["ok"] as? Bool == true)
        #expect(b[3]["error"] as? String == "only the most recent decision can be taken back, once (rule rewind: last)")
    }

    @Test(arguments: TestBackend.all) func badCSVColumnsNameFileLineAndValueAndImportNothing(_ backend: TestBackend)
        throws
    {
        try use(backend)
        let cases: [(String, String)] = [
            ("a,A,30,52.5,,,,,", "lon"), ("a,A,30,91,10,,,,", "lat"),
            ("a,A,30,,,,40,30,", "age_max 30 is below age_min 40"),
            ("a,A,30,,,,,,0", "max_km"), ("a,A,30,,,,,,-4", "max_km"), ("a,A,30,,,,,,far", "far"),
            ("a,A,30,,,,17,,", "age_min"),
        ]
        for (row, named) in cases {
            let csv = temporary.file(
                "bad.csv", "id,name,age,lat,lon,seeking,age_min,age_max,max_km\nok,Ok,30,,,,,,\n\(row)\n")
            let result = try SwipeBinary.run(["import", "--db", db, csv])
            #expect(result.status == 65, "\(row)")
            #expect(result.stderr.contains("bad.csv:3"), "\(row): \(result.stderr)")
            #expect(result.stderr.contains(named), "\(row): \(result.stderr)")
            // Atomic: not even the good row before it is imported.
            if FileManager.default.fileExists(atPath: db) {
                #expect(
                    try SwipeBinary.run(["profiles", "--db", db, "--format", "csv"]).stdout.contains("ok,Ok") == false)
            }
        }
    }

    /// `make run`'s database: the seed with its blocks gives the demo viewer a
    /// filtered deck of at least 40 cards, those who like them first.
    @Test(arguments: TestBackend.all) func theSeedGivesDemoAFilteredDeckLikersFirst(_ backend: TestBackend) throws {
        try use(backend)
        let seed = CrashRecoveryTests.repository + "/seed/"
        #expect(try SwipeBinary.run(["import", "--db", db, seed + "profiles.csv"]).status == 0)
        #expect(try SwipeBinary.run(["import", "--db", db, "--decisions", seed + "decisions.csv"]).status == 0)
        let blocks = try String(contentsOfFile: seed + "blocks.csv", encoding: .utf8).split(whereSeparator: \.isNewline)
            .dropFirst()
        #expect(blocks.count >= 3)
        for line in blocks {
            let pair = line.split(separator: ",").map(String.init)
            #expect(try SwipeBinary.run(["block", "--db", db, "--as", pair[0], pair[1]]).status == 0)
        }
        let script = temporary.file("hates.txt", String(repeating: "hate\n", count: 300))
        let result = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "demo"], stdin: script)
        let dealt = result.stdout.split(separator: "\n").compactMap { line -> String? in
            let answer = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return (answer?["decision"] as? [String: Any])?["profile"] as? String
        }
        #expect(dealt.count >= 40, "\(dealt.count) cards")
        #expect(dealt.count < 240, "the deck is filtered")
        // The first cards are people who liked demo: their decisions are in the seed.
        let decisions = try String(contentsOfFile: seed + "decisions.csv", encoding: .utf8)
        #expect(decisions.contains("\n\(dealt[0]),demo,"), "\(dealt[0]) does not like demo")
    }

    /// `block` alone on a detail page blocks the profile shown, closes the
    /// page and takes its card out undecided; `report` does the same by id.
    @Test(arguments: TestBackend.all) func blockFromTheDetailPage(_ backend: TestBackend) throws {
        try use(backend)
        try load()
        let a = try repl(["open", "block", "report ana spam", "deck"])
        #expect(a[0]["mode"] as? String == "detail")
        #expect(a[1]["mode"] as? String == "deck")
        #expect(Self.deck(a[1]) == ["bea", "ana"])
        #expect(a[1]["notice"] as? String == "blocked ivy")
        #expect(Self.deck(a[2]) == ["bea"])
        let history = try SwipeBinary.run(["history", "--db", db, "--as", "me", "--format", "csv"])
        #expect(history.stdout == "profile,name,decision,via,decided_at,undone_at\r\n", "nothing was decided")
        let likes = try SwipeBinary.run(["likes", "--db", db, "--as", "me", "--format", "csv"])
        #expect(!likes.stdout.contains("ivy"), "a blocked liker is not listed")
    }
}
