import Foundation
import SwipeTestSupport
import Testing

/// 8 `swipe repl --json` processes at once, 300
/// likes each, on either backend. Afterwards the ledger is read back (`swipe
/// history` per viewer) and checked against what the processes were told:
/// every acknowledged decision is stored exactly once and nothing else is
/// stored; the matches (`swipe matches`, `swipe stats`) are exactly the pairs
/// of mutual standing likes, recomputed here from the ledger; and each match
/// was announced to exactly one process (never none, never two).
///
/// Six viewers, two of them run twice at once (8 processes), so both races
/// happen: two people liking each other at the same instant, and one viewer
/// deciding the same card in two sessions.
@Suite final class ConcurrentWritersTests {
    let stores = TestStores("swipe-writers")
    var folder: String { stores.folder.path }

    static let processes = 8
    static let likesEach = 300
    /// 700 profiles, no preferences: everyone sees everyone, so even a
    /// viewer run twice (600 likes between its two sessions) never runs out.
    static let people = (0..<700).map { String(format: "u%03d", $0) }
    /// The viewers of the 8 processes: u000 and u001 twice.
    static let viewers = ["u000", "u001", "u002", "u003", "u004", "u005", "u000", "u001"]

    /// What one process answered.
    struct Session {
        var viewer: String
        var acknowledged: [String] = []
        var matchesAnnounced: [String] = []
        var errors: [String] = []
        var answers = 0
        var status: Int32 = -1
        var stderr = ""
    }

    /// One decision as `swipe history --format jsonl` prints it.
    struct Row: Decodable {
        var profile: String
        var decision: String
        var undone_at: String?
    }

    @Test(arguments: TestBackend.all) func eightProcessesOf300LikesLoseNothingAndMatchExactlyOnce(
        _ backend: TestBackend
    ) throws {
        let db = try stores.database(backend, sqlite: folder + "/writers.sqlite")
        let csv = stores.folder.file(
            "people.csv", "id,name,age\n" + Self.people.map { "\($0),Name \($0),30" }.joined(separator: "\n") + "\n")
        let imported = try SwipeBinary.run(["import", "--db", db, csv])
        try #require(imported.status == 0, "\(imported.stderr)")

        let sessions = try runAtOnce(db: db)
        for session in sessions {
            #expect(
                session.status == 0 || session.status == 1,
                "\(session.viewer): exit \(session.status): \(session.stderr)")
            #expect(session.answers == Self.likesEach, "\(session.viewer): one answer per line")
            #expect(!session.stderr.contains("locked"), "\(session.stderr)")
        }
        // The viewers run once: every like is theirs (699 cards, 300 likes).
        for session in sessions where Self.viewers.filter({ $0 == session.viewer }).count == 1 {
            #expect(session.errors == [], "\(session.viewer)")
            #expect(session.acknowledged.count == Self.likesEach, "\(session.viewer)")
        }
        // A viewer run twice loses races only to itself, and is told so.
        for session in sessions {
            for error in session.errors {
                #expect(error.hasPrefix("\(session.viewer) already decided like on "), "\(error)")
            }
        }

        // The ledger, read back through the binary.
        var standing: [String: Set<String>] = [:]
        for viewer in Set(Self.viewers) {
            let rows = try history(db: db, viewer: viewer)
            let acknowledged = sessions.filter { $0.viewer == viewer }.flatMap(\.acknowledged)
            #expect(Set(acknowledged).count == acknowledged.count, "\(viewer): a card acknowledged twice")
            #expect(
                rows.count == acknowledged.count, "\(viewer): every acknowledged decision stored once, nothing else")
            #expect(rows.allSatisfy { $0.undone_at == nil && $0.decision == "like" })
            #expect(Set(rows.map(\.profile)) == Set(acknowledged), "\(viewer)")
            standing[viewer] = Set(rows.filter { $0.undone_at == nil }.map(\.profile))
        }

        // Matches, recomputed: unordered pairs of mutual standing likes.
        var expected: Set<[String]> = []
        for (viewer, liked) in standing {
            for other in liked where standing[other]?.contains(viewer) == true {
                expected.insert([viewer, other].sorted())
            }
        }
        var stored: Set<[String]> = []
        for viewer in Self.people.prefix(8) {
            for profile in try matches(db: db, viewer: viewer) { stored.insert([viewer, profile].sorted()) }
        }
        #expect(expected.count >= 10, "the viewers liked each other: matches raced")
        #expect(stored == expected)
        let stats = try SwipeBinary.run(["stats", "--db", db, "--format", "json"])
        let counts = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        #expect(counts?["matches"] as? Int == expected.count, "\(stats.stdout)")
        #expect(counts?["decisions"] as? Int == sessions.map(\.acknowledged.count).reduce(0, +))
        // Each match was announced once, to the process whose like made it.
        let announced = sessions.flatMap { session in session.matchesAnnounced.map { [session.viewer, $0].sorted() } }
        #expect(announced.count == expected.count, "\(announced.count) announced, \(expected.count) made")
        #expect(Set(announced) == expected)
    }

    /// Starts the 8 processes together (standard output to files, so none
    /// ever waits for this test to read it) and waits for all of them.
    func runAtOnce(db: String) throws -> [Session] {
        let script = stores.folder.file("likes.txt", String(repeating: "like\n", count: Self.likesEach))
        var children: [(Process, String, String)] = []
        for (index, viewer) in Self.viewers.enumerated() {
            let process = Process()
            process.executableURL = SwipeBinary.url
            process.arguments = ["repl", "--json", "--db", db, "--as", viewer]
            var environment = ProcessInfo.processInfo.environment
            environment["SWIPE_AS"] = nil
            environment["SWIPE_DB"] = nil
            process.environment = environment
            process.standardInput = FileHandle(forReadingAtPath: script)
            let out = folder + "/out-\(index)", err = folder + "/err-\(index)"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
            children.append((process, out, err))
        }
        for (process, _, _) in children { try process.run() }
        return try zip(Self.viewers, children).map { viewer, child in
            let (process, out, err) = child
            process.waitUntilExit()
            var session = Session(viewer: viewer, status: process.terminationStatus)
            session.stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n") {
                session.answers += 1
                let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                if let decision = answer["decision"] as? [String: Any], let profile = decision["profile"] as? String {
                    session.acknowledged.append(profile)
                    if answer["match"] as? Bool == true { session.matchesAnnounced.append(profile) }
                } else if let error = answer["error"] as? String {
                    session.errors.append(error)
                }
            }
            return session
        }
    }

    func history(db: String, viewer: String) throws -> [Row] {
        let result = try SwipeBinary.run(["history", "--db", db, "--as", viewer, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Row.self, from: Data($0.utf8)) }
    }

    func matches(db: String, viewer: String) throws -> [String] {
        let result = try SwipeBinary.run(["matches", "--db", db, "--as", viewer, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["profile"] as? String
        }
    }
}
