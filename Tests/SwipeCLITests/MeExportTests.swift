import Foundation
import Testing

@testable import SwipeCLI
@testable import SwipeSession
@testable import SwipeStore

/// `me export [FILE]` as the REPL reads it, and the one-line form of the
/// export document that JSON mode and the socket answer
/// (Documentation/PersonalData.md, "Export and erase, from each interface").
struct MeExportTests {
    @Test func meExportTakesAtMostAFileAndNeverAnId() throws {
        #expect(try MeInput.parse(["export"]) == .export(file: nil))
        #expect(try MeInput.parse(["EXPORT", "~/me.json"]) == .export(file: "~/me.json"))
        // A word after it is where to write, whatever it looks like: there is no other person to name.
        #expect(try MeInput.parse(["export", "m-2"]) == .export(file: "m-2"))
        #expect(throws: CommandError.self) { try MeInput.parse(["export", "a", "b"]) }
        do {
            _ = try MeInput.parse(["export", "a", "b"])
        } catch {
            #expect(
                error.message
                    == "me export takes at most one file to write (got \"a b\"); quote a path with spaces, "
                    + "e.g. me export \"~/My data/me.json\"")
        }
        do {
            _ = try MeInput.parse(["exprot"])
        } catch {
            #expect(error.message.contains("did you mean \"me export\"?"), "\(error.message)")
        }
    }

    /// A document with what JSON makes hard: text with a newline, a quote and
    /// a C1 control, a small and a negative real, nulls, lists.
    static let document = PersonalExport(
        viewer: "m-1", exportedAt: "2026-11-24T12:00:00.000Z",
        sections: [
            .init(
                name: "profile",
                rows: [
                    [
                        ("id", .text("m-1")), ("bio", .text("two\nlines, \"quoted\" \u{9B}")), ("age", .int(30)),
                        ("lat", .real(-33.9)), ("lon", .real(0.00001)), ("city", .null),
                        ("interests", .strings(["a", "b"])),
                    ]
                ]),
            .init(name: "decisions", rows: []),
            .init(
                name: "matches",
                rows: [
                    [("profile", .text("m-2")), ("matched_at", .text("2026-11-20T11:00:00Z"))],
                    [("profile", .text("m-3")), ("matched_at", .null)],
                ]),
            .init(name: "rank_stats", rows: []),
        ])

    @Test func theOneLineDocumentIsThePrettyOneOnOneLine() throws {
        let pretty = Self.document.json, compact = Self.document.compactJSON
        #expect(pretty.hasSuffix("}\n") && pretty.contains("\n  \"matches\": [\n    {"))
        #expect(!compact.contains("\n") && !compact.contains("\u{9B}"), "one line, controls escaped")
        let a = try #require(try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? NSDictionary)
        let b = try #require(try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? NSDictionary)
        #expect(a.isEqual(b))
        #expect((b["profile"] as? [String: Any])?["lon"] as? Double == 0.00001, "exact, not rounded to 4 places")
        #expect(b["rank_stats"] is NSNull && (b["decisions"] as? [Any])?.isEmpty == true)
        #expect((b["withheld"] as? [Any])?.count == PersonalData.withheldCount)
        // Inside a JSON-mode answer it stays one valid line.
        let line = JSONValue.object([("ok", true), ("export", .verbatim(compact))]).serialized
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
        #expect((answer["export"] as? NSDictionary)?.isEqual(b) == true)
    }
}

extension PersonalData {
    /// How many stored columns export leaves out (`withheld`), counted from the coverage list.
    static var withheldCount: Int {
        coverage.filter { if case .withheld = $0.1 { true } else { false } }.count
    }
}
