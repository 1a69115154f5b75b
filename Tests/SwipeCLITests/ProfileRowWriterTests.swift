import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// The byte-level writer of `swipe profiles` against `RecordWriter` over the
/// same stored profiles as the oracle: every format, byte for byte.
@Suite struct ProfileRowWriterTests {
    let folder = TemporaryFolder()
    static let pieces = [
        "a", "Z", " ", ",", ";", "\"", "\\", "/", "\n", "\r\n", "\t", "\u{1}", "\u{1B}[31m", "\u{7F}", "\u{85}",
        "\u{9B}",
        "\u{2028}", "\u{2029}", "é", "日本", "👩‍💻", "राहुल", "\u{C2}",
    ]

    static func text(_ generator: inout some RandomNumberGenerator, atLeast minimum: Int = 0) -> String {
        // Mostly short, sometimes past a table column's 40, to be cut.
        let count = Int.random(in: 0...9, using: &generator) == 0 ? 30 : Int.random(in: minimum...5, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test(arguments: [OutputFormat.json, .jsonl, .csv, .table])
    func sameBytesAsRecordWriter(format: OutputFormat) throws {
        var generator = SystemRandomNumberGenerator()
        let store = try SQLiteStore(path: folder.path + "/w-\(format).sqlite")
        // 300 rows: the table's first page of 100, then 200 laid out from bytes.
        for index in 0..<300 {
            func optional() -> String? { Bool.random(using: &generator) ? nil : Self.text(&generator) }
            let profile = Profile(
                id: "p\(index)" + Self.text(&generator), name: "n" + Self.text(&generator),
                age: Int.random(in: 18...120, using: &generator), gender: optional(), city: optional(), bio: optional(),
                photos: (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.text(&generator) },
                interests: (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.text(&generator) })
            try store.upsert(profile)
        }
        for query in [ProfileQuery.all, ProfileQuery(limit: 1), ProfileQuery(city: "no such city")] {
            var expected = ""
            var reference = RecordWriter(format: format, columns: StoreRecords.profileColumns)
            try store.forEachProfile(query) { reference.write(StoreRecords.cells($0), to: &expected) }
            reference.finish(to: &expected)
            var got = ""
            var writer = ProfileRowWriter(format: format)
            try store.forEachProfileRow(query) { writer.write($0, to: &got) }
            writer.finish(to: &got)
            #expect(got == expected, "\(format) \(query)")
            if got != expected {
                let mismatch = zip(got.split(separator: "\n"), expected.split(separator: "\n")).first { $0 != $1 }
                Issue.record("first differing line:\n\(mismatch.map { "\($0.0)\n\($0.1)" } ?? "")")
            }
        }
    }
}
