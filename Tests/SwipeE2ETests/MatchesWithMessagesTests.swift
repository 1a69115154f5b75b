import Foundation
import SwipeTestSupport
import Testing

/// `swipe matches --with-messages` as a user runs it: each standing match
/// with its conversation's message count and last message time, in every
/// list format and cut by `--since`/`--until`, on both backends.
@Suite final class MatchesWithMessagesTests {
    let temporary = TemporaryFolder("swipe-matches-messages")
    let stores = TestStores()

    func swipe(_ arguments: String...) throws -> SwipeBinary.Result { try SwipeBinary.run(arguments) }

    /// b matches a (2026-11-02, at the later like) and c (2026-11-03);
    /// a and b then exchange two messages, now, and c's match stays silent.
    func prepare(_ backend: TestBackend) throws -> (db: String, first: String, last: String) {
        let db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let profiles = "id,name,age\na,Ana,30\nb,Bo,31\nc,Cy,32\n"
        let decisions = """
            viewer,profile,decision,decided_at
            a,b,like,2026-11-02T08:00:00.000Z
            b,a,superlike,2026-11-02T10:30:00.000Z
            b,c,like,2026-11-03T09:00:00.000Z
            c,b,like,2026-11-03T11:00:00.000Z

            """
        #expect(try swipe("import", "--db", db, temporary.file("p.csv", profiles)).status == 0)
        #expect(try swipe("import", "--decisions", "--db", db, temporary.file("d.csv", decisions)).status == 0)
        let before = Self.stamp(Date())
        #expect(try swipe("send", "--db", db, "--as", "a", "b", "hi").status == 0)
        #expect(try swipe("send", "--db", db, "--as", "b", "a", "hey").status == 0)
        let after = Self.stamp(Date().addingTimeInterval(0.001))
        return (db, before, after)
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func rows(_ result: SwipeBinary.Result) throws -> [[String: Any]] {
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test(arguments: TestBackend.all) func eachMatchCarriesItsCountAndLastTime(_ backend: TestBackend) throws {
        let (db, before, after) = try prepare(backend)
        let rows = try Self.rows(try swipe("matches", "--db", db, "--as", "b", "--with-messages", "--format", "json"))
        #expect(rows.map { $0["profile"] as? String } == ["c", "a"], "newest match first")
        #expect(
            Set(rows[0].keys) == ["profile", "name", "matched_at", "messages", "last_message_at"])
        #expect(rows[0]["messages"] as? Int == 0 && rows[0]["last_message_at"] is NSNull)
        #expect(rows[0]["matched_at"] as? String == "2026-11-03T11:00:00.000Z")
        #expect(rows[1]["messages"] as? Int == 2 && rows[1]["matched_at"] as? String == "2026-11-02T10:30:00.000Z")
        let last = try #require(rows[1]["last_message_at"] as? String)
        #expect(last >= before && last <= after, "sent between \(before) and \(after): \(last)")
        // The last message is b's "hey", as the conversation itself lists it.
        let conversation = try Self.rows(try swipe("messages", "--db", db, "--as", "b", "a", "--format", "json"))
        #expect(conversation.last?["text"] as? String == "hey")
        #expect(conversation.last?["sent_at"] as? String == last)
        // Without the flag, the list is as it was.
        let plain = try Self.rows(try swipe("matches", "--db", db, "--as", "b", "--format", "json"))
        #expect(plain.map { Set($0.keys) } == [["profile", "name", "matched_at"], ["profile", "name", "matched_at"]])
    }

    @Test(arguments: TestBackend.all) func everyFormatAndTheTimeRange(_ backend: TestBackend) throws {
        let (db, _, _) = try prepare(backend)
        let csv = try swipe("matches", "--db", db, "--as", "b", "--with-messages", "--format", "csv")
        let lines = csv.stdout.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "profile,name,matched_at,messages,last_message_at")
        #expect(lines[1] == "c,Cy,2026-11-03T11:00:00.000Z,0,")
        #expect(lines[2].hasPrefix("a,Ana,2026-11-02T10:30:00.000Z,2,20"))
        let jsonl = try swipe("matches", "--db", db, "--as", "a", "--with-messages", "--format", "jsonl")
        let objects = jsonl.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 1 && objects[0]["profile"] as? String == "b" && objects[0]["messages"] as? Int == 2)
        let table = try swipe("matches", "--db", db, "--as", "b", "--with-messages")
        #expect(table.status == 0 && table.stdout.contains("last_message_at") && table.stdout.contains("Cy"))
        let cut = try Self.rows(
            try swipe(
                "matches", "--db", db, "--as", "b", "--with-messages", "--since", "2026-11-02", "--until", "2026-11-02",
                "--format", "json"))
        #expect(cut.map { $0["profile"] as? String } == ["a"])
        let both = try swipe("matches", "--db", db, "--as", "b", "--with-messages", "--missed")
        #expect(both.status == 64 && both.stderr.contains("--with-messages"))
    }
}
