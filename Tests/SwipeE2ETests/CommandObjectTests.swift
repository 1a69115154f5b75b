import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Commands as JSON objects (Documentation/REPL.md; issue 37): JSON mode
/// takes a line that is one JSON object, `{"cmd": …, named arguments,
/// "tag": …}`, so a script sends any text, newlines included, and the
/// answer is the line's answer plus `cmd` and the echoed `tag`.
@Suite final class CommandObjectTests {
    let temporary = TemporaryFolder("swipe-command-objects")
    var db: String { temporary.path + "/swipe.sqlite" }

    init() throws {
        let store = try SQLiteStore(path: temporary.path + "/swipe.sqlite")
        // A burst of messages to one person: the rule messages-per-minute is ModerationTests'.
        try store.setRule("messages-per-minute", "1000000")
        for id in ["demo", "p-2", "c-3"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "p-2", profile: "demo", decision: .like, via: .button)
        _ = try store.record(viewer: "demo", profile: "p-2", decision: .like, via: .button)
        _ = try store.record(viewer: "c-3", profile: "demo", decision: .superlike, via: .button)
    }

    func repl(_ lines: [String]) throws -> [[String: Any]] {
        let input = temporary.file("in-" + UUID().uuidString, lines.joined(separator: "\n") + "\n")
        let result = try SwipeBinary.run(["repl", "--json", "--db", db, "--as", "demo"], stdin: input)
        return result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func anyTextGoesThroughNewlinesIncludedAndTheTagComesBack() throws {
        let texts = HostileTexts.all + ["two\nlines", "  \u{301}ends trimmed\t\n"]
        let answers = try repl(
            try texts.enumerated().map {
                try Self.line(["cmd": "say", "to": "p-2", "text": $0.element, "tag": $0.offset])
            }
                + [
                    try Self.line([
                        "cmd": "me_set", "field": "bio", "value": "I'm a \"night\" owl\nand a lark", "tag": "b",
                    ])
                ])
        try #require(answers.count == texts.count + 1)
        for (offset, answer) in answers.prefix(texts.count).enumerated() {
            #expect(answer["ok"] as? Bool == true, "\(answer)")
            #expect(answer["cmd"] as? String == "say")
            #expect(answer["tag"] as? Int == offset)
        }
        #expect(answers.last?["tag"] as? String == "b" && answers.last?["ok"] as? Bool == true)
        let store = try SQLiteStore(path: db, create: false)
        let stored = try store.messages(MessageQuery(viewer: "demo", profile: "p-2", last: nil)).map(\.text)
        #expect(stored == HostileTexts.all + ["two\nlines", "\u{301}ends trimmed"])
        #expect(try store.profile(id: "demo")?.bio == "I'm a \"night\" owl\nand a lark")
    }

    @Test func everyOtherCommandReadsItsArgumentsAsTheREPLReadsWords() throws {
        let answers = try repl([
            #"{"cmd":"drag","dx":60,"dy":-10}"#, #"{"cmd":"release"}"#, #"{"cmd":"likes"}"#,
            #"{"cmd":"open","id":"c-3","tag":[1,{"x":null}]}"#, #"{"cmd":"back"}"#,
            #"{"cmd":"prefs","field":"age","value":"25-35"}"#,
        ])
        try #require(answers.count == 6)
        #expect(answers[0]["progress"] as? Double == 0.45, "\(answers[0])")
        #expect(answers[0]["command"] as? String == #"{"cmd":"drag","dx":60,"dy":-10}"#)
        #expect((answers[2]["likes"] as? [[String: Any]])?.first?["profile"] as? String == "c-3")
        #expect((answers[3]["opened"] as? [String: Any])?["id"] as? String == "c-3", "\(answers[3])")
        #expect((answers[3]["tag"] as? [Any])?.count == 2)
        #expect((answers[5]["preferences"] as? [String: Any])?["age_min"] as? Int == 25, "\(answers[5])")
    }

    @Test func aMalformedObjectIsRefusedNamingTheExpectedFormAndChangesNothing() throws {
        let answers = try repl([
            #"{"cmd":"fly"}"#, #"{"cmd":"say","to":"p-2"}"#, #"{"to":"p-2"}"#,
            #"{"cmd":"say","to":"p-2","text":"x","color":"red"}"#,
            #"{"cmd":"drag","dx":"a","dy":0}"#, #"{not json"#, #"{"cmd":"say","to":"p-2","text":"   "}"#,
        ])
        try #require(answers.count == 7)
        #expect(answers.allSatisfy { $0["ok"] as? Bool == false })
        let errors = answers.map { $0["error"] as? String ?? "" }
        #expect(errors[0].hasPrefix(#"unknown cmd "fly": {"cmd": one of drag, release,"#), "\(errors[0])")
        #expect(
            errors[1]
                == #"say needs "text": say takes to, text, client_id?, e.g. {"cmd":"say","to":"p-2","text":"I'm free at 8"}"#
        )
        #expect(errors[2].hasPrefix("a command object names its command: "))
        #expect(errors[3].hasPrefix(#"say takes no "color""#))
        #expect(errors[4].hasPrefix("drag takes two numbers"), "the REPL's own words: \(errors[4])")
        #expect(errors[5].hasPrefix("a command object is one JSON object"))
        #expect(errors[6].hasPrefix(#"say needs a "text" that is not blank"#))
        #expect(answers[0]["cmd"] as? String == "fly" && answers[2]["cmd"] == nil)
        #expect(
            try SQLiteStore(path: db, create: false).messages(MessageQuery(viewer: "demo", profile: "p-2", last: nil))
                .isEmpty)
    }
}
