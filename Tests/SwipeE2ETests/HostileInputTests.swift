import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Hostile input end to end: REPL lines and profile text built to crash,
/// confuse or drive a terminal; damaged database files and impossible paths;
/// SQL-looking text. One answer per line, clear errors with sysexits codes,
/// no control characters on a terminal, nothing overwritten.
@Suite final class HostileInputTests {
    let temporary = TemporaryFolder("swipe-hostile")
    var folder: String { temporary.path }
    var db: String { folder + "/swipe.sqlite" }

    /// Runs swipe with `input` on standard input, output to files; stdout as bytes.
    func run(_ arguments: [String], input: [UInt8]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        let child = try RunningSwipe(
            arguments, inputFile: temporary.file("input-" + UUID().uuidString, input), folder: folder)
        var out: [UInt8] = []
        while let line = child.readLine(within: 120) { out += Array(line.utf8) + [0x0A] }
        let end = child.wait()
        #expect(!end.signalled, "swipe died of signal \(end.status)")
        return (end.status, out, child.stderr)
    }

    /// C0 controls other than the line feed, DEL, and the C1 controls (UTF-8 C2 80…C2 9F).
    static func controlBytes(in bytes: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { found.append(byte) }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                found.append(bytes[index + 1])
            }
        }
        return found
    }

    static let evil = "\u{1B}]0;owned\u{7}\u{1B}[2J\u{1B}[31mEve\u{9B}31m\u{8}\u{0}\t\r"

    func importEvilProfiles() throws {
        let rows =
            "id,name,age,city,bio,interests\n"
            + "evil,\"\(Self.evil)\",30,\"\(Self.evil)\",\"\(Self.evil)\nsecond line\",\"\(Self.evil);x\"\n"
            + "demo,Demo,29,,,\n"
        let result = try SwipeBinary.run(["import", "--db", db, temporary.file("evil.csv", Array(rows.utf8))])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Lines that must each get one answer and change nothing.
    static let hostileLines: [[UInt8]] = [
        Array("drag ".utf8) + [UInt8](repeating: 0x39, count: 10 * 1_048_576),  // a 10 MiB number
        [UInt8](repeating: 0x61, count: 1_048_576),
        [0x00, 0x00, 0x6C, 0x69, 0x6B, 0x65], [0x6C, 0x69, 0x6B, 0x65, 0x00],
        Array(1...0x1F).filter { $0 != 0x0A }, [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80],
        Array("drag nan 0".utf8), Array("drag 0 -nan".utf8), Array("drag inf -inf".utf8),
        Array("drag 1e308 1e308".utf8), Array("drag -1e309 0".utf8), Array("release 1e308 0".utf8),
        Array("release nan nan".utf8), Array("drag 0x1p1023 5e-324".utf8), Array("drag 10000 -10000".utf8),
        Array("release 100000 -100000".utf8), Array("drag 1e-320 -0".utf8), Array("release".utf8),
        Array("\u{1B}]0;owned\u{7}like".utf8), Array("open \u{1B}[2J".utf8), Array("history \u{1B}[31m".utf8),
        Array("tap".utf8), Array("history evil".utf8), Array("back".utf8),
    ]

    static var script: [UInt8] { hostileLines.flatMap { $0 + [0x0A] } }

    @Test func replJSONAnswersEveryHostileLineOnceWithFiniteNumbers() throws {
        try importEvilProfiles()
        let result = try run(["repl", "--json", "--db", db, "--as", "demo"], input: Self.script)
        let lines = result.stdout.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.hostileLines.count)
        #expect(Self.controlBytes(in: result.stdout) == [])
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            #expect(object?["ok"] is Bool)
            for card in object?["cards"] as? [[String: Any]] ?? [] {
                for key in ["x", "y", "scale", "rotation", "alpha"] {
                    #expect((card[key] as? Double)?.isFinite == true, "\(key) in \(card)")
                }
            }
        }
    }

    @Test func replTextPrintsNoControlCharacters() throws {
        try importEvilProfiles()
        let result = try run(
            ["repl", "--db", db, "--as", "demo"], input: Self.script + Array("deck\nlike\nhistory\nmatches\n".utf8))
        #expect(result.stdout.count > 0)
        #expect(Self.controlBytes(in: result.stdout) == [])
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("Eve"))
        #expect(result.status == 1)  // a script with failed commands
    }

    @Test func tablesPrintNoControlCharacters() throws {
        try importEvilProfiles()
        let decisions = temporary.file(
            "d.csv", Array("viewer,profile,decision,decided_at\ndemo,evil,like,2026-11-20T10:00:00Z\n".utf8))
        #expect(try SwipeBinary.run(["import", "--db", db, "--decisions", decisions]).status == 0)
        for command in [["profiles"], ["history", "--as", "demo"], ["matches", "--as", "evil"], ["stats"]] {
            let result = try SwipeBinary.run(command + ["--db", db])
            #expect(result.status == 0)
            #expect(Self.controlBytes(in: Array(result.stdout.utf8)) == [], "\(command)")
        }
    }

    @Test func sqlLookingTextRoundTripsThroughImportAndProfilesJSON() throws {
        let nasty = [
            "'); DROP TABLE profiles;--", "Robert\"); DROP TABLE decisions; --", "\\", "\\\"", "%", "_", "%_\\%",
            "?1 :a @b $c", "\u{1}\u{2}\u{7}\u{B}\u{C}\u{1B}[0m\u{7F}", "👩‍👩‍👧‍👦🏳️‍🌈", String(repeating: "ñ'\"", count: 33),
        ]
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let rows = nasty.enumerated().map { index, text in
            ["id\(index)" + quoted(text).dropFirst().dropLast(), text, "30", text, text, text].map(quoted).joined(
                separator: ",")
        }
        let csv = "id,name,age,gender,city,bio\n" + rows.joined(separator: "\n") + "\n"
        let imported = try SwipeBinary.run(["import", "--db", db, temporary.file("nasty.csv", Array(csv.utf8))])
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try SwipeBinary.run(["profiles", "--db", db, "--format", "json"])
        let profiles = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(profiles.count == nasty.count)
        for (profile, text) in zip(profiles, nasty) {
            for key in ["name", "gender", "city", "bio"] { #expect(profile[key] as? String == text, "\(key)") }
        }
        #expect(try DatabaseCheck.integrity(db) == "ok")
    }

    // MARK: - Damaged files and impossible paths

    /// Runs `swipe profiles` on `path`: the exit status and stderr, checking
    /// it did not crash and left the file's bytes as they were.
    func openFails(_ path: String) throws -> (status: Int32, stderr: String) {
        let before = FileManager.default.contents(atPath: path)
        let result = try SwipeBinary.run(["profiles", "--db", path])
        #expect(FileManager.default.contents(atPath: path) == before, "\(path) changed")
        #expect(result.stderr.hasPrefix("swipe: "), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        return (result.status, result.stderr)
    }

    func healthyDatabase() throws -> String {
        let seed = CrashRecoveryTests.repository + "/seed/profiles.csv"
        #expect(try SwipeBinary.run(["import", "--db", db, seed]).status == 0)
        return db
    }

    @Test func aNonSQLiteFileExits74AndIsUntouched() throws {
        let path = temporary.file("notes.sqlite", Array("just some notes, not a database\n".utf8))
        let result = try openFails(path)
        #expect(result.status == 74)
        #expect(result.stderr == "swipe: \(path): not a swipe database\n")
    }

    @Test func aCorruptFileExits74AndIsUntouched() throws {
        let path = try healthyDatabase()
        var data = try #require(FileManager.default.contents(atPath: path))
        for offset in 4096..<data.count { data[offset] = UInt8(truncatingIfNeeded: offset &* 131) }
        try data.write(to: URL(fileURLWithPath: path))
        let result = try openFails(path)
        #expect(result.status == 74)
        #expect(result.stderr.contains("malformed"))
    }

    @Test func aNewerDatabaseExits1WithTheVersionsAndIsUntouched() throws {
        let path = try healthyDatabase()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = 99")
        }
        let result = try openFails(path)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("has schema version 99, but this swipe understands up to version \(Schema.version)"))
    }

    @Test func pathsThatCannotBeCreatedExit73() throws {
        let blocker = temporary.file("plain", [])
        let csv = temporary.file("p.csv", Array("id,name,age\na,Ann,30\n".utf8))
        for path in [blocker + "/db/swipe.sqlite", "/proc/self/no/such/swipe.sqlite"] {
            let result = try SwipeBinary.run(["import", "--db", path, csv])
            #expect(result.status == 73, "\(path)")
            #expect(result.stderr.hasPrefix("swipe: cannot create the database \(path)"), "\(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: blocker) == Data())
        let folderAsDatabase = try SwipeBinary.run(["stats", "--db", folder])
        #expect(folderAsDatabase.status == 74)
        #expect(folderAsDatabase.stderr.hasPrefix("swipe: "))
    }

    /// A real full disk: a 1 MiB tmpfs. Needs mount privileges (root in CI
    /// containers usually has them); the store suite covers the same with
    /// SQLite's page limit everywhere.
    @Test(.enabled(if: HostileInputTests.canMountTmpfs)) func aFullDiskExits74AndKeepsWhatWasThere() throws {
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(Self.mount(disk))
        defer { _ = Self.unmount(disk) }
        let db = disk + "/swipe.sqlite"
        let seed = CrashRecoveryTests.repository + "/seed/profiles.csv"
        #expect(try SwipeBinary.run(["import", "--db", db, seed]).status == 0)
        let before = try DatabaseCheck.profilesChecksum(db)
        let rows = (0..<20_000).map { "full-\($0),Person \($0),30,a bio long enough to fill the little disk \($0)" }
        let big = temporary.file("big.csv", Array(("id,name,age,bio\n" + rows.joined(separator: "\n") + "\n").utf8))
        let result = try SwipeBinary.run(["import", "--db", db, big])
        #expect(result.status == 74)
        #expect(result.stderr.contains("full"), "\(result.stderr)")
        #expect(try DatabaseCheck.profilesChecksum(db) == before)
        #expect(try DatabaseCheck.integrity(db) == "ok")
    }

    static func mount(_ path: String) -> Bool {
        shell("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", path])
    }

    static func unmount(_ path: String) -> Bool { shell("/bin/umount", [path]) }

    static func shell(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "swipe-tmpfs-probe-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        return mount(probe) && unmount(probe)
    }()

    // MARK: - --sync

    @Test func syncFullIsAcceptedEverywhereAndNonsenseIsUsage() throws {
        _ = try healthyDatabase()
        #expect(try SwipeBinary.run(["stats", "--db", db, "--sync", "full"]).status == 0)
        #expect(try SwipeBinary.run(["profiles", "--db", db, "--sync", "normal"]).status == 0)
        let wrong = try SwipeBinary.run(["stats", "--db", db, "--sync", "sometimes"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("normal") && wrong.stderr.contains("full"))
        for command in ["import", "history", "matches", "profiles", "stats", "repl"] {
            #expect(try SwipeBinary.run([command, "--help"]).stdout.contains("--sync <normal|full>"), "\(command)")
        }
    }
}
