import Foundation
import SwipeCLI
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Testing

/// Profile text never drives a terminal, in any
/// format or completion list, and stays byte-exact data to a file or pipe;
/// a profile deleted under a deck leaves it like a card decided elsewhere.
@Suite struct TerminalSafetyTests {
    static let evil = "\u{1B}]0;pwned\u{7}\u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{7}\u{9B}31m\r\u{202E}Eve\\"
    let columns = ["id", "name"]

    func render(_ format: OutputFormat, forTerminal: Bool) -> String {
        var out = ""
        var writer = RecordWriter(format: format, columns: columns, forTerminal: forTerminal)
        writer.write([.text("p-1"), .text(Self.evil)], to: &out)
        writer.finish(to: &out)
        return out
    }

    /// C0 but line feed and tab, DEL, C1, and the bidi controls.
    static func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                || [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(
                    $0.value)
        }
    }

    @Test func onATerminalEveryFormatShowsControlCharactersEscaped() {
        for format in OutputFormat.allCases {
            let text = render(format, forTerminal: true)
            // CSV ends its lines in CRLF; every other CR must be gone.
            let withoutLineEnds = text.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(Self.controls(in: withoutLineEnds) == [], "\(format): \(text.debugDescription)")
        }
        #expect(
            render(.csv, forTerminal: true) == "id,name\r\n"
                + #"p-1,\x1B]0;pwned\x07\x1B[2J\x1B]52;c;ZXZpbA==\x07\x9B31m\x0D\u202EEve\\"# + "\r\n")
        #expect(
            render(.jsonl, forTerminal: true)
                == #"{"id":"p-1","name":"\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\r\u202eEve\\"}"#
                + "\n")
    }

    @Test func toAFileCSVAndJSONStayByteExactData() throws {
        let csv = render(.csv, forTerminal: false)
        #expect(csv == "id,name\r\np-1,\"" + Self.evil + "\"\r\n")
        let json = render(.json, forTerminal: false)
        let array = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]]
        #expect(array?.first?["name"] == Self.evil)
        // On a terminal the JSON is still the same data.
        let shown =
            try JSONSerialization.jsonObject(with: Data(render(.json, forTerminal: true).utf8)) as? [[String: String]]
        #expect(shown?.first?["name"] == Self.evil)
    }

    @Test func cleanTextIsShownAsItIsOnATerminal() {
        for text in ["Ana", "王芳 \"Fang\"", "two\nlines", "tab\there", "back\\slash"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func tabCompletionNeverListsAnIdWithAControlCharacter() {
        let ids = ["p-1", "p-\u{1B}[2J", "p-\u{202E}x", "p-2"]
        let completion = ReplCompletion(lineBeforeCursor: "history p", profileIDs: ids)
        #expect(completion.candidates == ["p-1", "p-2"])
        #expect(completion.insertion == "-")
        let only = ReplCompletion(lineBeforeCursor: "history p-\u{1B}", profileIDs: ids)
        #expect(only.candidates == [])
    }

    @Test func oneLineMessagesCutAHugeName() {
        let name = String(repeating: "N", count: 100_000)
        let line = TerminalText.oneLine(name)
        #expect(TerminalText.displayWidth(line) == TerminalText.oneLineWidth)
        #expect(line.hasSuffix("…"))
        #expect(TerminalText.oneLine("Ana\u{1B}[2J") == "Ana\u{FFFD}[2J")
    }
}

/// A profile deleted by another program while its card is on the deck.
@Suite final class DeletedProfileTests {
    let temporary = TemporaryFolder("swipe-trust-deleted")
    var path: String { temporary.path + "/d.sqlite" }

    init() throws {
        let store = try SQLiteStore(path: path)
        // v1: a viewer whose tie-hash order of these never-acting profiles is a to f (README "Ranking").
        for id in ["v1", "a", "b", "c", "d", "e", "f"] {
            try store.upsert(Profile(id: id, name: "Name " + id, age: 30))
        }
    }

    @Test func itsCardLeavesTheDeckAndTheSessionGoesOn() throws {
        let store = try SQLiteStore(path: path)
        var session = try ReplSession.over(store, viewer: "v1", format: .json)
        #expect(DiscoveryModel.tieOrder("v1", ["a", "b", "c", "d", "e", "f"]) == ["a", "b", "c", "d", "e", "f"])
        #expect(session.snapshot.cards.map { $0.profile?.id } == ["a", "b", "c", "d"])
        try SQLiteStore(path: path).connection.execute("DELETE FROM profiles WHERE id = 'a'")
        var out = ""
        #expect(!session.run("like", into: &out))
        #expect(
            out.hasPrefix(
                #"{"ok":false,"command":"like","error":"a is no longer in the database (deleted by another program); that card leaves the deck","mode":"deck""#
            ), "\(out)")
        #expect(session.snapshot.cards.map { $0.profile?.id } == ["b", "c", "d", "e"])
        for command in ["like", "reload", "hate"] {
            out = ""
            #expect(session.run(command, into: &out), "\(command): \(out)")
        }
        let history = try store.history(HistoryQuery(viewer: "v1")).map { "\($0.profile) \($0.decision.rawValue)" }
        #expect(history == ["c hate", "b like"])
    }
}
