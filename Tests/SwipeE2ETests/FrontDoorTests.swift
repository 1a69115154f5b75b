import Foundation
import SwipeTestSupport
import Testing

/// What the README and the manual quote from the binary is what the binary
/// says (issue 24: "every statement in the README must be true of the
/// binary": `--version` printed schema 1 in the manual while the binary said
/// 5, and the transcript's first card was not the one `make run` deals).
@Suite struct FrontDoorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let temporary = TemporaryFolder("swipe-front-door")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theManualQuotesTheVersionLineTheBinaryPrints() throws {
        let version = try SwipeBinary.run(["--version"])
        #expect(version.status == 0)
        let line = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("swipe ") && line.contains("(database schema "), "\(line)")
        #expect(
            try Self.text("Documentation/CommandLine.md").contains("`\(line)`"), "CommandLine.md should quote \(line)")
    }

    /// The demo database as `make run` makes it (scripts/load-seed.sh: the
    /// profiles, the decisions, then each block of seed/blocks.csv).
    func demoDatabase() throws -> String {
        let db = temporary.path + "/demo.sqlite"
        let seed = Self.root.appendingPathComponent("seed").path
        #expect(try SwipeBinary.run(["import", "--db", db, "--quiet", seed + "/profiles.csv"]).status == 0)
        #expect(
            try SwipeBinary.run(["import", "--db", db, "--quiet", "--decisions", seed + "/decisions.csv"]).status == 0)
        let blocks = try String(contentsOfFile: seed + "/blocks.csv", encoding: .utf8)
        for row in blocks.split(separator: "\n").dropFirst() {
            let pair = row.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            #expect(try SwipeBinary.run(["block", "--db", db, "--as", pair[0], pair[1]]).status == 0)
        }
        return db
    }

    /// The README's first session: the card on top and its `why` line, as the
    /// binary deals them from the seed. The activity words at the end of
    /// `why` ("active this week") follow today's date and are left out.
    @Test func theREADMEsFirstCardIsTheOneMakeRunDeals() throws {
        let db = try demoDatabase()
        let script = temporary.file("why.txt", "why\ndeck\n")
        let answer = try SwipeBinary.run(["repl", "--db", db, "--as", "demo", "--picture"], stdin: script)
        #expect(answer.status == 0, "\(answer.stderr)")
        let lines = answer.stdout.split(separator: "\n").map(String.init)
        let why = try #require(lines.first { $0.hasPrefix("p-") && $0.contains(": ") }, "\(answer.stdout)")
        let activity = [" · active today", " · active this week"]
        let stable = activity.reduce(why) { $0.replacingOccurrences(of: $1, with: "") }
        let readme = try Self.text("README.md")
        let quoted = try #require(
            readme.split(separator: "\n").map(String.init).first { $0.hasPrefix(String(why.prefix(6))) },
            "the README quotes no why line for \(why)")
        #expect(activity.reduce(quoted) { $0.replacingOccurrences(of: $1, with: "") } == stable)
        // The top card's name and age, and its id and slot, as drawn.
        let id = String(why.prefix { $0 != ":" })
        let card = try #require(lines.first { $0.contains(id + " · slot 0") }, "\(answer.stdout)")
        #expect(readme.contains(card.trimmingCharacters(in: .whitespaces)))
        let name = try #require(lines.first { $0.range(of: #", \d+ +│"#, options: .regularExpression) != nil })
        #expect(readme.contains(name.trimmingCharacters(in: .whitespaces)), "\(name)")
    }
}
