import Foundation
import SwipeTestSupport
import Testing

/// `swipe me`, `swipe export`, `swipe erase` as a user or a script runs them
/// (Documentation/PersonalData.md), on each backend.
@Suite final class PersonalDataCommandTests {
    let temporary = TemporaryFolder("swipe-me")
    let stores = TestStores()

    func database(_ backend: TestBackend) throws -> String {
        let db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let profiles = temporary.file(
            "people.csv", "id,name,age,city,lat,lon\nm-1,Mo,30,Lisboa,38.7223,-9.1393\nm-2,Ana,28,Porto,41.15,-8.61\n")
        let decisions = temporary.file(
            "decisions.csv",
            "viewer,profile,decision,decided_at\nm-1,m-2,like,2026-11-20T10:00:00Z\nm-2,m-1,like,2026-11-20T11:00:00Z\n"
        )
        for arguments in [["import", "--db", db, profiles], ["import", "--db", db, "--decisions", decisions]] {
            let result = try SwipeBinary.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
        return db
    }

    @Test(arguments: TestBackend.all) func meSetChecksAsTheImporterDoesInItsWords(_ backend: TestBackend) throws {
        let db = try database(backend)
        let refused = try SwipeBinary.run(["me", "--db", db, "--as", "m-1", "set", "age", "17"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("age must be a whole number from 18 to 120"), "\(refused.stderr)")
        let csv = temporary.file("young.csv", "id,name,age\nm-3,Kid,17\n")
        let imported = try SwipeBinary.run(["import", "--db", db, csv])
        #expect(imported.status == 65 && imported.stderr.contains("age must be a whole number from 18 to 120"))

        let set = try SwipeBinary.run(["me", "--db", db, "--as", "m-1", "set", "bio", "Climber,  cook"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("bio saved\n"))
        let place = try SwipeBinary.run(["me", "--db", db, "--as", "m-1", "set", "place", "-33.9,18.4"])
        #expect(place.status == 0, "a negative value is a value, not an option: \(place.stderr)")
        let shown = try SwipeBinary.run(["me", "--db", db, "--as", "m-1", "--format", "json"])
        let me =
            try #require(
                try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])["me"]
            as? [String: Any]
        #expect(me?["bio"] as? String == "Climber,  cook" && me?["lat"] as? Double == -33.9)
        let typo = try SwipeBinary.run(["me", "--db", db, "--as", "m-1", "set", "nmae", "X"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean \"me set name\""), "\(typo.stderr)")
    }

    @Test(arguments: TestBackend.all) func exportWritesOneVersionedDocumentWholeOrNotAtAll(_ backend: TestBackend)
        throws
    {
        let db = try database(backend)
        let file = temporary.path + "/m-1.json"
        let written = try SwipeBinary.run(["export", "--db", db, "--as", "m-1", file])
        #expect(written.status == 0, "\(written.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "personal data is the owner's only")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        #expect(document["format"] as? String == "swipe-personal-data" && document["version"] as? Int == 3)
        #expect((document["profile"] as? [String: Any])?["lat"] as? Double == 38.7223, "exact, not rounded")
        #expect((document["matches"] as? [[String: Any]])?.map { $0["profile"] as? String } == ["m-2"])
        #expect((document["decisions"] as? [[String: Any]])?.count == 1)
        let stdout = try SwipeBinary.run(["export", "--db", db, "--as", "m-1"])
        #expect(stdout.status == 0 && stdout.stdout.contains("\"viewer\": \"m-1\""))
        // An unknown viewer: an error, and the file as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let unknown = try SwipeBinary.run(["export", "--db", db, "--as", "nobody", file])
        #expect(unknown.status == 64)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test(arguments: TestBackend.all) func eraseRefusesWithoutATerminalUnlessToldYes(_ backend: TestBackend) throws {
        let db = try database(backend)
        let refused = try SwipeBinary.run(["erase", "--db", db, "--as", "m-1"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("pass --yes"), "\(refused.stderr)")
        #expect(try SwipeBinary.run(["profile", "--db", db, "m-1"]).status == 0, "nothing changed")
        let noViewer = try SwipeBinary.run(["erase", "--db", db, "--yes"])
        #expect(noViewer.status == 64, "never the database's last viewer by default: \(noViewer.stderr)")
        let erased = try SwipeBinary.run(["erase", "--db", db, "--as", "m-1", "--yes"])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(erased.stdout.contains("erased m-1") && erased.stdout.contains("matches ended: m-2"))
        #expect(try SwipeBinary.run(["profile", "--db", db, "m-1"]).status == 64)
        let matches = try SwipeBinary.run(["matches", "--db", db, "--as", "m-2", "--format", "jsonl"])
        #expect(matches.status == 0 && matches.stdout.isEmpty)
    }

    /// `document` and `oracle` hold the same members and values, `exported_at` aside.
    static func sameDocument(_ document: [String: Any], _ oracle: [String: Any]) -> Bool {
        var document = document, oracle = oracle
        document["exported_at"] = nil
        oracle["exported_at"] = nil
        return NSDictionary(dictionary: document).isEqual(to: oracle)
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The REPL's `me export` (text and JSON mode) writes or answers the
    /// document `swipe export` writes for the same viewer; it takes no
    /// one else's id: a word after it is the file to write.
    @Test(arguments: TestBackend.all) func theReplsMeExportIsSwipeExportsDocument(_ backend: TestBackend) throws {
        let db = try database(backend)
        let file = temporary.path + "/repl.json", other = temporary.path + "/m-2.json"
        let missing = temporary.path + "/no-such-folder/me.json"
        let script = temporary.file("export.txt", "me export\nme export \(file)\nme export \(other)\n")
        let json = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "m-1"], stdin: script)
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(json.stdout)")
        let answers = try lines.map { try Self.object(Data($0.utf8)) }
        let answered = try #require(answers[0]["export"] as? [String: Any])
        #expect(answers[1]["exported"] as? [String: Any] != nil && answers[1]["export"] == nil)
        let written = try Self.object(try Data(contentsOf: URL(fileURLWithPath: file)))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "personal data is the owner's only")
        let notOthers = try Self.object(try Data(contentsOf: URL(fileURLWithPath: other)))

        let cli = temporary.path + "/cli.json"
        let exported = try SwipeBinary.run(["export", "--db", db, "--as", "m-1", cli])
        #expect(exported.status == 0, "\(exported.stderr)")
        let oracle = try Self.object(try Data(contentsOf: URL(fileURLWithPath: cli)))
        #expect(oracle["viewer"] as? String == "m-1")
        #expect(Self.sameDocument(answered, oracle), "JSON mode's export")
        #expect(Self.sameDocument(written, oracle), "me export FILE")
        #expect(Self.sameDocument(notOthers, oracle), "a file named after m-2 still holds m-1's data")
        #expect((answered["profile"] as? [String: Any])?["lon"] as? Double == -9.1393, "exact, not rounded")

        // Text mode: the document as swipe export prints it, then where a file went.
        let text = try SwipeBinary.run(["repl", "--db", db, "--as", "m-1"], stdin: script)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\"format\": \"swipe-personal-data\""))
        #expect(text.stdout.contains("wrote m-1's data to \(file) ("), "\(text.stdout)")
        let printed = String(text.stdout[text.stdout.range(of: "{\n")!.lowerBound...])
        let end = try #require(printed.range(of: "\n}\n"))
        // A second session is activity (rank_stats.last_active_at moved): the
        // oracle is the file this session wrote, already held to swipe export's.
        let rewritten = try Self.object(try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Self.sameDocument(try Self.object(Data(printed[..<end.upperBound].utf8)), rewritten))
        var moved = rewritten, before = oracle
        moved["rank_stats"] = nil
        before["rank_stats"] = nil
        #expect(Self.sameDocument(moved, before), "only the activity differs")

        // Last (a session is activity): a file that cannot be written is
        // refused naming it, and a script with a refusal exits 1.
        let unwritable = try SwipeBinary.run(
            ["repl", "--json", "--db", db, "--as", "m-1"], stdin: temporary.file("bad.txt", "me export \(missing)\n"))
        #expect(unwritable.status == 1)
        let refusal = try Self.object(Data(unwritable.stdout.utf8))
        #expect(refusal["ok"] as? Bool == false && refusal["export"] == nil)
        #expect(refusal["error"] as? String == missing + ": cannot create it: No such file or directory")
    }
}
