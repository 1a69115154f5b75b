import Foundation
import SwipeTestSupport
import Testing

/// How the binary reads a REPL line in script mode: NUL bytes, plain decimal
/// numbers, `nope`, quoted ids, and scrub's release at rest.
@Suite final class ReplLineTests {
    let temporary = TemporaryFolder("swipe-lines")
    var folder: String { temporary.path }
    var db: String { folder + "/swipe.sqlite" }

    /// Viewer `a`; the deck deals `b`, `x y`, `c`. `a` already noped `x y` once.
    init() throws {
        let profiles = temporary.file("p.csv", "id,name,age\na,Ana,30\nb,Bo,28\nx y,Xi,33\nc,Cy,41\n")
        let decisions = temporary.file(
            "d.csv", "viewer,profile,decision,decided_at\na,x y,hate,2026-01-01T00:00:00.000Z\n")
        #expect(try SwipeBinary.run(["import", "--db", db, profiles]).status == 0)
        #expect(try SwipeBinary.run(["import", "--db", db, "--decisions", decisions]).status == 0)
    }

    /// Runs `swipe repl ARGS --as a` with `script` (raw bytes) as standard input.
    func repl(_ arguments: [String] = [], script: [UInt8]) throws -> SwipeBinary.Result {
        let input = folder + "/script-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: input, contents: Data(script))
        return try SwipeBinary.run(["repl"] + arguments + ["--db", db, "--as", "a"], stdin: input)
    }

    func repl(_ arguments: [String] = [], text script: String) throws -> SwipeBinary.Result {
        try repl(arguments, script: Array(script.utf8))
    }

    @Test func aLineHoldingANulIsRefusedWhole() throws {
        // drag 150\0xyz 0: read up to the NUL it would be drag 150 0, past 100, a like on release.
        let script = Array("drag 150".utf8) + [0] + Array("xyz 0\nrelease\nhistory b\n".utf8)
        let text = try repl(script: script)
        #expect(text.status == 1)
        #expect(
            text.stdout.contains("error: the line holds a NUL byte (\\0), which no command takes; nothing was done"))
        #expect(text.stdout.contains("error: nothing to release; drag first"))
        #expect(!text.stdout.contains("liked"))
        #expect(text.stdout.contains("no decisions yet"))
        let json = try repl(["--json"], script: script)
        let first = json.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix(#"{"ok":false,"command":"drag 150\u0000xyz 0","error":"the line holds a NUL byte"#))
        #expect(!json.stdout.contains(#""decision":{"#))
    }

    @Test func onlyPlainDecimalNumbersAreRead() throws {
        let result = try repl(text: "drag 0x10 0\ndrag 1e6 0\nrelease\n")
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"error: drag takes two numbers: DX DY (got "0x10"), e.g. drag 60 -10"#))
        // The deck's limit is the REPL's: 1e6 is accepted and flies out.
        #expect(result.stdout.contains("♥ liked Bo (b) by drag"))
        let over = try repl(text: "drag 1000001 0\n")
        #expect(over.stdout.contains(#"drag takes finite numbers within ±1000000 points: DX DY (got "1000001")"#))
    }

    @Test func nopeIsHate() throws {
        let result = try repl(text: "nope\nhistory b\n")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("✕ noped Bo (b) by button"))
        let nope = try SwipeBinary.run(["history", "--db", db, "--as", "a", "--decision", "nope", "--format", "csv"])
        #expect(nope.status == 0, "\(nope.stderr)")
        let hate = try SwipeBinary.run(["history", "--db", db, "--as", "a", "--decision", "hate", "--format", "csv"])
        #expect(nope.stdout == hate.stdout)
        #expect(nope.stdout.contains("\r\nb,Bo,hate,button,"))
        #expect(nope.stdout.contains("\r\nx y,Xi,hate,"))
    }

    @Test func historyTakesAQuotedIdWithSpaces() throws {
        let result = try repl(["--json"], text: "history \"x y\"\nhistory 'x y'\nhistory x y\n")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for line in lines.prefix(2) {
            #expect(line.contains(#""history":[{"profile":"x y","name":"Xi","decision":"hate""#), "\(line)")
        }
        #expect(lines.last?.contains("history takes at most one profile id") == true)
    }

    @Test func scrubReleasedAtRestDecidesNothing() throws {
        let result = try repl(["--physics", "scrub"], text: "drag -50 0\nrelease\nhistory b\ndrag 30 0\nrelease\n")
        let beforeLike = result.stdout.components(separatedBy: "drag (+30").first ?? result.stdout
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!beforeLike.contains("liked"))
        #expect(result.stdout.contains("no decisions yet"))
        #expect(result.stdout.contains("♥ liked Bo (b) by drag"))
    }
}
