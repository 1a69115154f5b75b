import Foundation
import SwipeTestSupport
import Testing

/// The non-interactive commands, run as a user would, including every exit code.
@Suite final class CommandLineTests {
    let temporary = TemporaryFolder("swipe-cli")
    var folder: String { temporary.path }
    let stores = TestStores()
    /// `--db`: SQLite unless the test chose its backend with `use`.
    lazy var db: String = folder + "/db/swipe.sqlite"

    /// Runs the test on `backend`: the SQLite file above, or a fresh PostgreSQL database.
    func use(_ backend: TestBackend) throws {
        db = try stores.database(backend, sqlite: folder + "/db/swipe.sqlite")
    }

    func swipe(_ arguments: String..., environment: [String: String] = [:]) throws -> SwipeBinary.Result {
        try SwipeBinary.run(arguments, environment: environment)
    }

    static let profiles = """
        name,id,age,city,bio,photos,interests\r
        Ana,a,30,Lisboa,"Hi, I'm ""Ana""\r
        two lines",https://p.example/a1.jpg;https://p.example/a2.jpg,chess;jazz\r
        王芳,b,28,北京,,,\r
        Ben,c,41,,,,\r

        """

    func importProfiles() throws {
        let result = try swipe("import", "--db", db, temporary.file("p.csv", Self.profiles))
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: TestBackend.all) func importThenProfilesAsJSON(_ backend: TestBackend) throws {
        try use(backend)
        let first = try swipe("import", "--db", db, temporary.file("p.csv", Self.profiles))
        #expect(first.status == 0)
        #expect(first.stdout.contains("3 inserted, 0 updated, 0 rejected"))
        let again = try swipe("import", "--db", db, folder + "/p.csv")
        // The same rows again: nothing to write, and the summary says so.
        #expect(again.stdout.contains("0 inserted, 0 updated, 3 unchanged, 0 rejected"), "\(again.stdout)")
        let json = try swipe("profiles", "--db", db, "--format", "json")
        #expect(json.status == 0)
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(array?.count == 3)
        // The CRLF inside the quoted bio is stored as LF.
        #expect(array?.first?["bio"] as? String == "Hi, I'm \"Ana\"\ntwo lines")
        #expect(array?.first?["photos"] as? [String] == ["https://p.example/a1.jpg", "https://p.example/a2.jpg"])
        #expect(array?[1]["name"] as? String == "王芳")
        #expect(array?[2]["gender"] is NSNull)
    }

    @Test(arguments: TestBackend.all) func decisionsHistoryMatchesAndStats(_ backend: TestBackend) throws {
        try use(backend)
        try importProfiles()
        let decisions = temporary.file(
            "d.csv",
            """
            viewer,profile,decision,decided_at,via
            a,b,like,2026-11-20T10:00:00.000Z,drag
            b,a,superlike,2026-11-20T11:00:00.500Z,button
            a,c,hate,2026-11-20T12:00:00Z,
            c,b,hate,2026-11-20T08:00:00Z,import
            c,a,like,2026-11-20T09:00:00.000Z,detail
            """)
        let loaded = try swipe("import", "--db", db, "--decisions", decisions)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let matches = try swipe("matches", "--db", db, "--as", "a", "--format", "csv")
        #expect(matches.stdout == "profile,name,matched_at\r\nb,王芳,2026-11-20T11:00:00.500Z\r\n")
        let missed = try swipe("matches", "--db", db, "--as", "a", "--missed", "--format", "jsonl")
        #expect(missed.stdout.contains("\"profile\":\"c\""))
        // Reading a's matches did not make a the remembered viewer (issue 10 item 7).
        let bare = try swipe("history", "--db", db)
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("no viewer chosen"))
        let history = try swipe("history", "--db", db, "--as", "a", "--decision", "hate", "--format", "jsonl")
        #expect(
            history.stdout == """
                {"profile":"c","name":"Ben","decision":"hate","via":"import","decided_at":"2026-11-20T12:00:00.000Z","undone_at":null}

                """)
        let fromEnvironment = try swipe("history", "--db", db, "--limit", "1", environment: ["SWIPE_AS": "b"])
        #expect(fromEnvironment.stdout.contains("superlike"))
        let stats = try swipe("stats", "--db", db)
        #expect(stats.stdout.contains("matches        1"))
        #expect(stats.stdout.contains("decisions      5"))
    }

    @Test(arguments: TestBackend.all) func tablesStripControlCharacters(_ backend: TestBackend) throws {
        try use(backend)
        let path = temporary.file("evil.csv", "id,name,age\nx,\"\u{1B}]0;owned\u{7}Eve\",30\n")
        #expect(try swipe("import", "--db", db, path).status == 0)
        let table = try swipe("profiles", "--db", db)
        #expect(!table.stdout.contains("\u{1B}"))
        #expect(table.stdout.contains("Eve"))
        let json = try swipe("profiles", "--db", db, "--format", "json")
        #expect(json.stdout.contains("\\u001b]0;owned\\u0007Eve"))
    }

    @Test(arguments: TestBackend.all) func badRowsImportNothingAndExit65(_ backend: TestBackend) throws {
        try use(backend)
        let path = temporary.file("bad.csv", "id,name,age\nok,Ok,30\nyoung,Kid,12\n,Nobody,40\n")
        let result = try swipe("import", "--db", db, path)
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.csv:3: column age: value \"12\""))
        #expect(result.stderr.contains("bad.csv:4: column id"))
        // A failed first import leaves no database behind (issue 10 item 5).
        let stats = try swipe("stats", "--db", db)
        #expect(stats.status == 66)
        #expect(stats.stderr.contains("no such database"), "\(stats.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let skipping = try swipe("import", "--db", db, "--skip-invalid", path)
        #expect(skipping.status == 0)
        #expect(skipping.stdout.contains("1 inserted, 0 updated, 2 rejected"))
        #expect(skipping.stderr.contains("rejected: "))
    }

    @Test(arguments: TestBackend.all) func manyBadRowsShowTwentyThenACount(_ backend: TestBackend) throws {
        try use(backend)
        let rows = (1...25).map { "p\($0),P,7" }.joined(separator: "\n")
        let result = try swipe("import", "--db", db, temporary.file("many.csv", "id,name,age\n" + rows + "\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("many.csv:21:"))
        #expect(!result.stderr.contains("many.csv:22:"))
        #expect(result.stderr.contains("and 5 more"))
    }

    @Test(arguments: TestBackend.all) func unknownColumnsAndBrokenCSVExit65(_ backend: TestBackend) throws {
        try use(backend)
        let unknown = try swipe("import", "--db", db, temporary.file("u.csv", "id,name,age,shoe_size,zodiac\n"))
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("shoe_size, zodiac"))
        let broken = try swipe("import", "--db", db, temporary.file("q.csv", "id,name,age\na,\"Ann,30\n"))
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("q.csv:2:"))
    }

    @Test func exitCodes() throws {
        #expect(try swipe("import", "--db", db, folder + "/missing.csv").status == 66)
        #expect(try swipe("history", "--no-such-option").status == 64)
        #expect(try swipe("history", "--db", db, "--since", "last tuesday").status == 64)
        try importProfiles()
        #expect(try swipe("history", "--db", db).status == 64)  // no viewer known yet
        let ghost = try swipe("matches", "--db", db, "--as", "ghost")
        #expect(ghost.status == 64)
        #expect(ghost.stderr.contains("\"ghost\" is not a profile"))
        #expect(
            try swipe("import", "--db", "/proc/no/such/folder/x.sqlite", temporary.file("p.csv", Self.profiles)).status
                == 73)
        #expect(try swipe("stats", "--db", db).status == 0)
    }

    @Test func databaseFromEnvironmentAndXDG() throws {
        let csv = temporary.file("p.csv", Self.profiles)
        let env = ["SWIPE_DB": folder + "/env.sqlite"]
        #expect(try swipe("import", csv, environment: env).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/env.sqlite"))
        #expect(try swipe("stats", environment: env).stdout.hasPrefix("profiles       3\n"))
        let xdg = ["XDG_DATA_HOME": folder + "/xdg"]
        #expect(try swipe("import", csv, environment: xdg).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/xdg/swipe/swipe.sqlite"))
        #expect(try swipe("stats", environment: xdg).stdout.hasPrefix("profiles       3\n"))
    }

    // MARK: - A missing database

    /// The message for a missing database at `path` (which needs no quoting).
    static func missing(_ path: String) -> String {
        "swipe: \(path): no such database (create one with `swipe import --db \(path) profiles.csv`)\n"
    }

    /// Nothing at `path`, its -wal and -shm, or the folder `db` would live in.
    func expectNothingCreated(_ path: String) {
        for file in [path, path + "-wal", path + "-shm", (path as NSString).deletingLastPathComponent] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) was created")
        }
    }

    /// Every command but `import`, with the options it needs (the viewer for those that have one).
    static let openers: [[String]] = [
        ["history", "--as", "a"], ["matches", "--as", "a"], ["profiles"], ["stats"], ["repl", "--as", "a"],
    ]

    /// `serve` runs until stopped and `link` writes the secret: not in `openers`' loop.
    @Test(arguments: openers + [["serve", "--port", "0"], ["link", "--as", "a"]])
    func aMissingDatabaseExits66AndIsNotCreated(command: [String]) throws {
        let result = try SwipeBinary.run(command + ["--db", db])
        #expect(result.status == 66)
        #expect(result.stderr == Self.missing(db))
        #expect(result.stdout.isEmpty)
        expectNothingCreated(db)
    }

    @Test func aMissingDefaultDatabaseGetsTheSameMessage() throws {
        let xdgDB = folder + "/xdg/swipe/swipe.sqlite"
        let viaXDG = try swipe("stats", environment: ["XDG_DATA_HOME": folder + "/xdg"])
        #expect(viaXDG.status == 66)
        #expect(viaXDG.stderr == Self.missing(xdgDB))
        expectNothingCreated(xdgDB)
        let home = folder + "/home"
        let homeDB = home + "/.local/share/swipe/swipe.sqlite"
        let viaHome = try swipe("profiles", environment: ["HOME": home, "XDG_DATA_HOME": ""])
        #expect(viaHome.status == 66)
        #expect(viaHome.stderr == Self.missing(homeDB))
        #expect(!FileManager.default.fileExists(atPath: home))
        let envDB = folder + "/env/swipe.sqlite"
        let viaEnv = try swipe("history", "--as", "a", environment: ["SWIPE_DB": envDB])
        #expect(viaEnv.status == 66)
        #expect(viaEnv.stderr == Self.missing(envDB))
        expectNothingCreated(envDB)
    }

    @Test(arguments: TestBackend.all) func importStillCreatesTheDatabaseThenEveryCommandOpensIt(_ backend: TestBackend)
        throws
    {
        try use(backend)
        try importProfiles()
        for command in Self.openers {
            let result = try SwipeBinary.run(command + ["--db", db])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }
}
