import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Text is never altered silently and never unbounded, on every path (issue
/// 36, defect 6): bytes that are not UTF-8 are refused by the REPL and JSON
/// mode (they stored U+FFFD), and by the command line, naming where; a bio,
/// a name or a report's reason over its limit is refused in the REPL as in
/// the import, and nothing changes.
@Suite final class TextLimitCommandTests {
    let temporary = TemporaryFolder("swipe-text-limits")
    var db: String { temporary.path + "/swipe.sqlite" }

    init() throws {
        let store = try SQLiteStore(path: temporary.path + "/swipe.sqlite")
        try store.upsert(Profile(id: "demo", name: "Demo", age: 30, bio: "as it was"))
        try store.upsert(Profile(id: "p-1", name: "Pat", age: 30))
        _ = try store.record(viewer: "p-1", profile: "demo", decision: .like, via: .button)
    }

    func repl(_ input: [UInt8]) throws -> [[String: Any]] {
        let result = try SwipeBinary.run(
            ["repl", "--json", "--db", db, "--as", "demo"], stdin: temporary.file("in-" + UUID().uuidString, input))
        return result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func bytesThatAreNotUTF8AreRefusedNamingWhereAndNothingIsStored() throws {
        let input = Array("me set bio caf".utf8) + [0xE9] + Array(" au lait\nme\n".utf8)
        let answers = try repl(input)
        try #require(answers.count == 2)
        #expect(answers[0]["ok"] as? Bool == false)
        #expect(
            answers[0]["error"] as? String
                == "the line is not valid UTF-8 (byte 0xE9 at byte 15); nothing was done: send text as UTF-8")
        #expect(((answers[1]["me"] as? [String: Any])?["bio"] as? String) == "as it was")
        #expect(try SQLiteStore(path: db, create: false).profile(id: "demo")?.bio == "as it was")
        // On the command line too: an argument that is not UTF-8 is refused before anything runs.
        // Foundation's Process takes Strings: the invalid byte goes in through a shell.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec \"$0\" send --db \"$1\" --as demo p-1 \"$(printf 'caf\\351')\"", SwipeBinary.url.path, db,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(said == "swipe: argument 7 is not valid UTF-8 (byte 0xE9 at byte 4); nothing was done\n", "\(said)")
    }

    @Test func overLongTextIsRefusedInTheREPLAsInTheImport() throws {
        let bio = String(repeating: "b", count: 5_001)
        let reason = String(repeating: "r", count: 1_001)
        let name = String(repeating: "n", count: 101)
        let answers = try repl(
            Array("me set bio \(bio)\nme set name \(name)\nreport p-1 \(reason)\nme set bio \(bio.dropLast())\n".utf8))
        try #require(answers.count == 4)
        #expect(
            answers[0]["error"] as? String
                == "me set bio: bio is 5,001 characters, over the 5,000 a bio may be, not \"\(bio.prefix(40))…\"")
        #expect(
            answers[1]["error"] as? String
                == "me set name: name is 101 characters, over the 100 a name may be, not \"\(name.prefix(40))…\"")
        #expect(
            (answers[2]["error"] as? String)?.hasSuffix(
                "must be at most 1,000 characters (it has 1,001), not \"\(reason.prefix(40))…\"") == true,
            "\(answers[2])")
        #expect(answers[3]["ok"] as? Bool == true)
        let store = try SQLiteStore(path: db, create: false)
        #expect(try store.profile(id: "demo")?.bio?.count == 5_000)
        #expect(try store.reports().isEmpty)
    }

    /// `swipe me --help` teaches instead of being refused (issue 37).
    @Test func meHelpShowsTheHelp() throws {
        for flag in ["--help", "-h"] {
            let help = try SwipeBinary.run(["me", flag])
            #expect(help.status == 0, "\(help.stderr)")
            #expect(help.stdout.contains("USAGE: swipe me"), "\(help.stdout)")
            #expect(help.stdout.contains("set FIELD VALUE"))
        }
    }
}
