import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Through the built binary: output that cannot be
/// written, files that are not swipe's, reads that must not write or pick
/// the next session's viewer, a terminal that profile text must not drive.
@Suite final class CommandSafetyTests {
    let temporary = TemporaryFolder("swipe-trust")
    var folder: String { temporary.path }
    var db: String { folder + "/swipe.sqlite" }
    static let seed = CrashRecoveryTests.repository + "/seed/profiles.csv"

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `swipe arguments` through /bin/sh with `redirect` applied to its
    /// standard output (`> /dev/full`, `>&-`, `> FILE`); stdin from `stdin`.
    /// Without a redirect, stdout is captured. `prefix` runs swipe through
    /// another program (`setpriv …`); `program` replaces swipe altogether.
    func run(
        _ arguments: [String], stdout redirect: String? = nil, stdin: String = "/dev/null",
        environment: [String: String] = [:], prefix: [String] = [], program: String? = nil
    ) throws -> Outcome {
        let out = folder + "/out-" + UUID().uuidString, err = folder + "/err-" + UUID().uuidString
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", "exec \"$@\" " + (redirect ?? "> '\(out)'") + " 2> '\(err)' < '\(stdin)'", "sh"]
            + prefix + [program ?? SwipeBinary.url.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIPE_AS"] = nil
        env["SWIPE_DB"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        try process.run()
        process.waitUntilExit()
        defer { unlink(out); unlink(err) }
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// A tmpfs of `size` mounted at a new folder `name` in the test folder,
    /// unmounted by the caller's `defer { unmount(…) }`; its path.
    func mountTmpfs(_ name: String, size: String) throws -> String {
        let disk = folder + "/" + name
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(HostileInputTests.shell("/bin/mount", ["-t", "tmpfs", "-o", "size=" + size, "tmpfs", disk]))
        return disk
    }

    func importSeed(into path: String? = nil) throws {
        let result = try run(["import", "--db", path ?? db, Self.seed])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func script(_ lines: [String]) -> String {
        temporary.file("in-" + UUID().uuidString, lines.joined(separator: "\n") + "\n")
    }

    func standingDecisions(_ path: String? = nil) throws -> Int {
        try SQLiteConnection(path: path ?? db).scalarInt("SELECT count(*) FROM decisions") ?? -1
    }

    // MARK: - Item 1: a write that fails is an error, exit 74

    @Test func everyOutputPathToAFullDeviceExits74() throws {
        try importSeed()
        var commands: [[String]] = OutputFormatNames.all.map { ["profiles", "--format", $0] }
        commands += [
            ["history", "--as", "demo"], ["matches", "--as", "demo", "--format", "csv"], ["stats"],
            ["repl", "--as", "demo"], ["repl", "--json", "--as", "demo"],
            ["import", temporary.file("more.csv", "id,name,age\nnew-1,New,30\n")],
        ]
        for command in commands {
            let result = try run(command + ["--db", db], stdout: "> /dev/full", stdin: script(["deck"]))
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
        }
    }

    /// The reported case: a CSV export onto a small disk stopped at 64 KiB and exited 0.
    @Test(.enabled(if: HostileInputTests.canMountTmpfs)) func anExportOntoASmallDiskThatFillsUpExits74() throws {
        let rows = (0..<1500).map {
            "big-\($0),Person \($0),30,a bio long enough to make the export outgrow the disk \($0)"
        }
        let csv = temporary.file("big.csv", "id,name,age,bio\n" + rows.joined(separator: "\n") + "\n")
        #expect(try run(["import", "--db", db, csv]).status == 0)
        let disk = try mountTmpfs("disk", size: "64k")
        defer { _ = HostileInputTests.unmount(disk) }
        let result = try run(["profiles", "--db", db, "--format", "csv"], stdout: "> '\(disk)/export.csv'")
        #expect(result.status == 74)
        #expect(
            result.stderr
                == "swipe: cannot write to standard output: No space left on device; the output is incomplete\n")
    }

    @Test func aREPLWhoseStdoutIsClosedStopsAtTheFirstAnswerItCannotWrite() throws {
        try importSeed()
        let likes = script(Array(repeating: "like", count: 50))
        for redirect in [">&-", "> /dev/full"] {
            let before = try standingDecisions()
            let result = try run(["repl", "--db", db, "--as", "demo"], stdout: redirect, stdin: likes)
            #expect(result.status == 74, "\(redirect)")
            #expect(result.stderr.contains("stopped: cannot write the answer to standard output"), "\(result.stderr)")
            #expect(try standingDecisions() - before <= 1, "\(redirect): decisions nobody saw")
        }
    }

    /// A reader that goes away (`| head`) is not a failure: swipe ends
    /// quietly, as a filter does (a guard: print ended the same way).
    @Test func aClosedPipeEndsQuietly() throws {
        try importSeed()
        let err = folder + "/pipe-err"
        let command =
            "'\(SwipeBinary.url.path)' profiles --db '\(db)' --format json 2> '\(err)' | head -c 1 > /dev/null"
        _ = try run(["-c", command], program: "/bin/sh")
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "")
    }

    // MARK: - Items 4 and 12: files that are not swipe's

    func foreign(_ name: String, _ sql: String) throws -> String {
        let path = folder + "/" + name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path
    }

    /// The database file and any -wal, -shm or -journal beside it.
    func databaseFiles(_ path: String) throws -> [String] {
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }.sorted()
    }

    func expectRefused(_ path: String, by commands: [[String]]) throws {
        let before = FileManager.default.contents(atPath: path)
        let files = try databaseFiles(path)
        for command in commands {
            let result = try run(command + ["--db", path], stdin: script(["like"]))
            #expect(result.status == 74, "\(command)")
            #expect(result.stderr.hasSuffix("swipe: \(path): not a swipe database\n"), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count <= 2, "\(command): one line, no schema dump")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(try databaseFiles(path) == files)
    }

    static let everyCommand = [
        ["stats"], ["profiles"], ["history", "--as", "x"], ["matches", "--as", "x"], ["repl", "--as", "x"],
        ["import", CrashRecoveryTests.repository + "/seed/profiles.csv"],
    ]

    @Test func anotherProgramsDatabaseIsRefusedByEveryCommandNotAByteChanged() throws {
        try expectRefused(try foreign("f.sqlite", "CREATE TABLE foo (x)"), by: Self.everyCommand)
        try expectRefused(try foreign("p.sqlite", "CREATE TABLE profiles (id, nickname)"), by: Self.everyCommand)
        try expectRefused(
            try foreign("w.sqlite", "PRAGMA journal_mode = WAL; CREATE TABLE foo (x)"), by: Self.everyCommand)
    }

    @Test func anEmptyFileIsNotADatabaseForAnyCommandButImport() throws {
        let path = temporary.file("empty.sqlite", "")
        try expectRefused(path, by: Self.everyCommand.filter { $0[0] != "import" })
        try importSeed(into: path)
        #expect(try run(["stats", "--db", path]).stdout.contains("profiles       241"))
    }

    @Test func userVersionZeroOrNegativeIsNotASwipeDatabase() throws {
        try importSeed()
        for version in [0, -1] {
            _ = try foreign("swipe.sqlite", "PRAGMA user_version = \(version)")
            try expectRefused(db, by: [["stats"], ["repl", "--as", "demo"]])
        }
    }

    // MARK: - Item 5: a failed first import leaves nothing behind

    @Test func aFailedFirstImportLeavesNoDatabaseBehind() throws {
        let path = folder + "/new/nested/swipe.sqlite"
        let bad = temporary.file("bad.csv", "id,name,age\nok,Ok,30\nkid,Kid,12\n")
        let result = try run(["import", "--db", path, bad])
        #expect(result.status == 65)
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"))
        let after = try run(["history", "--db", path, "--as", "ok"])
        #expect(after.status == 66)
        #expect(after.stderr.contains("no such database"), "\(after.stderr)")
        // An empty file that the failed import was given stays empty.
        let empty = temporary.file("empty.sqlite", "")
        #expect(try run(["import", "--db", empty, bad]).status == 65)
        #expect(FileManager.default.contents(atPath: empty) == Data())
        #expect(!FileManager.default.fileExists(atPath: empty + "-wal"))
    }

    /// A disk too small even for the schema: the import fails while the
    /// database is being made, and what it made goes too.
    @Test(.enabled(if: HostileInputTests.canMountTmpfs)) func aFirstImportThatCannotWriteTheSchemaLeavesNothing()
        throws
    {
        let disk = try mountTmpfs("tiny", size: "8k")
        defer { _ = HostileInputTests.unmount(disk) }
        let result = try run(["import", "--db", disk + "/d/swipe.sqlite", Self.seed])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("full"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == [])
    }

    // MARK: - Items 6 and 7: reads write nothing and act as no one

    @Test func aReadNeverMakesItsViewerTheRemembered() throws {
        try importSeed()
        #expect(try run(["matches", "--db", db, "--as", "p-005"]).status == 0)
        #expect(try run(["history", "--db", db, "--as", "p-005"]).status == 0)
        #expect(try run(["history", "--db", db], environment: ["SWIPE_AS": "p-005"]).status == 0)
        let bare = try run(["repl", "--db", db], stdin: script(["like"]))
        #expect(bare.status == 64, "\(bare.stderr)")
        #expect(bare.stderr.contains("no viewer chosen"))
        #expect(try standingDecisions() == 0)
        // A REPL session does set it, and a piped one says who it acts as, on stderr.
        let session = try run(["repl", "--db", db, "--as", "demo"], stdin: script(["like"]))
        #expect(session.status == 0)
        #expect(session.stderr == "swipe: swiping as Demo Viewer (demo)\n")
        #expect(!session.stdout.contains("swiping as"))
        let json = try run(["repl", "--json", "--db", db], stdin: script(["deck"]))
        #expect(json.stderr == "swipe: swiping as Demo Viewer (demo)\n")
    }

    @Test func readCommandsWriteNothingToTheDatabaseFile() throws {
        try importSeed()
        _ = try foreign("swipe.sqlite", "PRAGMA journal_mode = DELETE")
        let before = FileManager.default.contents(atPath: db)
        for command in [["stats"], ["profiles"], ["history", "--as", "demo"], ["matches", "--as", "demo"]] {
            #expect(try run(command + ["--db", db]).status == 0, "\(command)")
        }
        #expect(FileManager.default.contents(atPath: db) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("swipe.sqlite") } == [
                "swipe.sqlite"
            ])
    }

    /// A database on a read-only file system: reads work (the file cannot
    /// change, so it is read as immutable); a writer is told what is missing.
    @Test(.enabled(if: HostileInputTests.canMountTmpfs)) func aDatabaseOnAReadOnlyDiskIsReadAndNotWritten() throws {
        let disk = try mountTmpfs("ro", size: "2m")
        defer { _ = HostileInputTests.unmount(disk) }
        let path = disk + "/swipe.sqlite"
        try importSeed(into: path)
        let liked = try run(["repl", "--db", path, "--as", "demo"], stdin: script(["like"]))
        #expect(liked.status == 0)
        // The card the ranking dealt first, as the session said it liked it ("♥ liked NAME (ID) by button").
        let id = try #require(
            liked.stdout.firstMatch(of: /liked .* \((p-[0-9]+)\) by button/)?.output.1, "\(liked.stdout)")
        #expect(HostileInputTests.shell("/bin/mount", ["-o", "remount,ro", disk]))
        let history = try run(["history", "--db", path, "--as", "demo", "--format", "csv"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.hasPrefix("profile,name,decision,via,decided_at,undone_at\r\n\(id),"))
        let repl = try run(["repl", "--db", path, "--as", "demo"], stdin: script(["like"]))
        #expect(repl.status == 74)
        #expect(repl.stderr.contains("swipe: \(path): no write permission (Read-only file system"), "\(repl.stderr)")
    }

    /// A user without write permission on the folder (not root: root passes
    /// every permission check): the error names the folder and the permission.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aFolderWithoutWritePermissionIsNamed() throws {
        try importSeed()
        chmod(db, 0o644)
        chmod(folder, 0o755)
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let history = try run(["history", "--db", db, "--as", "demo"], prefix: asNobody)
        #expect(history.status == 74)
        #expect(
            history.stderr.contains(
                "swipe: \(folder): no write permission (Permission denied; reading \(db) in WAL mode"),
            "\(history.stderr)")
        let repl = try run(["repl", "--db", db, "--as", "demo"], stdin: script(["like"]), prefix: asNobody)
        #expect(repl.status == 74)
        #expect(repl.stderr.contains("swipe: \(db): no write permission (Permission denied"), "\(repl.stderr)")
    }

    // MARK: - Item 8: profile text on a terminal

    static let evil = "\u{1B}]0;pwned\u{7}\u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{7}"

    /// Runs `swipe arguments` with its stdout on a terminal (`script`'s pty); what the terminal got.
    func onATerminal(_ arguments: [String], stdin: String = "/dev/null") throws -> String {
        let command =
            ([SwipeBinary.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
            + " < '" + stdin + "'"
        return try run(["-q", "-e", "-c", command, "/dev/null"], program: "/usr/bin/script").stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func csvAndJSONOnATerminalShowControlCharactersEscapedAndStayExactInAFile() throws {
        let csv = temporary.file("evil.csv", "id,name,age\nevil,\"\(Self.evil)\",30\n")
        #expect(try run(["import", "--db", db, csv]).status == 0)
        for format in ["csv", "json", "jsonl", "table"] {
            let shown = try onATerminal(["profiles", "--db", db, "--format", format])
            #expect(shown.contains("evil"), "\(format): \(shown.debugDescription)")
            #expect(!shown.contains("\u{1B}") && !shown.contains("\u{7}"), "\(format): \(shown.debugDescription)")
        }
        #expect(try onATerminal(["profiles", "--db", db, "--format", "csv"]).contains(#"\x1B]0;pwned\x07"#))
        let file = try run(["profiles", "--db", db, "--format", "csv"])
        #expect(
            file.stdout == "id,name,age,gender,city,bio,photos,interests,lat,lon,seeking,age_min,age_max,max_km\r\n"
                + "evil,\(Self.evil),30,,,,,,,,,18,120,\r\n")
    }

    /// `swipe repl --json` on a terminal: C0 and C1 are escaped as ever, and
    /// bidi controls too (`\u202e`), still the same JSON data; to a pipe they stay raw.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func replJSONOnATerminalEscapesBidiControls() throws {
        let csv = temporary.file("bidi.csv", "id,name,age\nbidi,\"A\u{202E}B\",30\ndemo,Demo,30\n")
        #expect(try run(["import", "--db", db, csv]).status == 0)
        let input = script(["open"])
        let shown = try onATerminal(["repl", "--json", "--db", db, "--as", "demo"], stdin: input)
        #expect(shown.contains(#""name":"A\u202eB""#), "\(shown.prefix(400))")
        #expect(!shown.contains("\u{202E}"))
        let piped = try run(["repl", "--json", "--db", db, "--as", "demo"], stdin: input)
        #expect(piped.stdout.contains("\"name\":\"A\u{202E}B\""))
    }

    // MARK: - Item 12: long names, a full disk at start

    /// A name is at most 100 characters (Documentation/Safety.md): a
    /// 100,000-character one is refused by the import, naming its line and
    /// column in one short line (the value cut to its first 40 characters),
    /// and nothing is imported.
    @Test func aHugeNameIsRefusedInOneShortLine() throws {
        let name = String(repeating: "N", count: 100_000)
        let csv = temporary.file("long.csv", "id,name,age\nlong,\(name),30\ndemo,Demo,30\n")
        let imported = try run(["import", "--db", db, csv])
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("long.csv:2"), "\(imported.stderr.prefix(300))")
        #expect(imported.stderr.contains("name is 100,000 characters, over the 100 a name may be"))
        #expect(imported.stderr.count < 400, "\(imported.stderr.prefix(500))")
        #expect(try run(["profiles", "--db", db, "--format", "csv"]).stdout.isEmpty)
    }

    @Test(.enabled(if: HostileInputTests.canMountTmpfs)) func aFullDiskAtStartIsSaidPlainly() throws {
        let disk = try mountTmpfs("full", size: "1m")
        defer { _ = HostileInputTests.unmount(disk) }
        let path = disk + "/swipe.sqlite"
        try importSeed(into: path)
        // Fill the disk to the last byte.
        let fd = open(disk + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(fd, block, block.count) > 0 {}
        close(fd)
        let result = try run(["repl", "--db", path, "--as", "demo"], stdin: script(["like"]))
        #expect(result.status == 74)
        #expect(result.stderr.contains("the disk holding the database is full"), "\(result.stderr)")
        #expect(!result.stderr.contains("INSERT"), "\(result.stderr)")
    }
}

/// The `--format` names, spelled as the command line takes them.
enum OutputFormatNames {
    static let all = ["table", "json", "jsonl", "csv"]
}
