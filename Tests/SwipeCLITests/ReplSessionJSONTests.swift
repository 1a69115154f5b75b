import SwipeCLI
import SwipeCore
import SwipeSession
import Testing

@Suite("REPL session, JSON mode")
struct ReplSessionJSONTests {
    @Test("drag 60 -10 gives the README's worked example")
    func workedExample() throws {
        var session = try Fixture.session()
        // percentX = 60/100 = 0.6; main = 0.6 − 0.15 = 0.45 = progress; like 0.6, hate 0.
        // first: (187.5 + 60, 273.5 − 10) = (247.5, 263.5); rotation (1 − 247.5/187.5)·22.5° = −0.32·22.5° = −7.2°.
        // second: scale 0.94 + 0.06·0.45 = 0.967; y 273.5 + 19 − 19·0.45 = 292.5 − 8.55 = 283.95.
        // third: scale 0.88 + 0.027 = 0.907; y 273.5 + 38 − 8.55 = 302.95.
        // other looks like third at rest and does not move: 0.88 at 273.5 + 38 = 311.5.
        let expected =
            #"{"ok":true,"command":"drag 60 -10","mode":"deck","progress":0.45,"like":0.6,"hate":0,"cards":["#
            + #"{"slot":0,"state":"first","profile":"m-1","name":"Mia","x":247.5,"y":263.5,"scale":1,"rotation":-7.2,"alpha":1},"#
            + #"{"slot":1,"state":"second","profile":"w-2","name":"Wen","x":187.5,"y":283.95,"scale":0.967,"rotation":0,"alpha":1},"#
            + #"{"slot":2,"state":"third","profile":"k-3","name":"Kai","x":187.5,"y":302.95,"scale":0.907,"rotation":0,"alpha":1},"#
            + #"{"slot":3,"state":"other","profile":"l-4","name":"Lou","x":187.5,"y":311.5,"scale":0.88,"rotation":0,"alpha":1}]}"#
            + "\n"
        #expect(session.answer("drag 60 -10") == expected)
    }

    @Test("a release past the threshold records a like, then shows the settled deck with the slot recycled")
    func releaseRecords() throws {
        let ledger = TestLedger()
        var session = try Fixture.session(ledger: ledger)
        _ = session.answer("drag 120 0")
        let line = session.answer("release")
        // |dx| = 120 > 100: like by drag. Slot 0 refills with z-5 and goes to the back as `other`.
        #expect(
            line.hasPrefix(
                #"{"ok":true,"command":"release","mode":"deck","progress":0,"like":0,"hate":0,"cards":[{"slot":1,"state":"first","profile":"w-2","name":"Wen","x":187.5,"y":273.5,"scale":1,"rotation":0,"alpha":1}"#
            ))
        #expect(line.contains(#"{"slot":0,"state":"other","profile":"z-5""#))
        #expect(
            line.contains(
                #""decision":{"profile":"m-1","decision":"like","via":"drag","decided_at":"2026-11-20T23:55:01.000Z"},"match":false"#
            ))
        #expect(ledger.entries.map(\.profileID) == ["m-1"])
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
    }

    @Test("a mutual like says match: true")
    func match() throws {
        var session = try Fixture.session(ledger: TestLedger(likedBy: ["m-1"]))
        #expect(
            session.answer("like").contains(
                #""decision":{"profile":"m-1","decision":"like","via":"button","decided_at":"2026-11-20T23:55:01.000Z"},"match":true"#
            ))
    }

    @Test("the detail view carries the whole profile, keyed as swipe profiles")
    func detail() throws {
        var session = try Fixture.session()
        let line = session.answer("open")
        #expect(line.contains(#""mode":"detail""#))
        #expect(
            line.contains(
                #""detail":{"id":"m-1","name":"Mia","age":27,"gender":"f","city":"Lisbon","bio":"Climber.\nBaker of sourdough.","photos":["https://example.com/m1.jpg"],"interests":["climbing","bread"],"lat":null,"lon":null,"seeking":[],"age_min":18,"age_max":120,"max_km":null}"#
            ))
        let liked = session.answer("like")
        #expect(liked.contains(#""mode":"deck""#))
        #expect(liked.contains(#""via":"detail""#))
    }

    @Test("an error answers ok false with the message, and changes nothing")
    func errors() throws {
        var session = try Fixture.session()
        _ = session.answer("drag 30 0")
        let before = session.snapshot
        let refused = session.answer("drag abc")
        #expect(
            refused.hasPrefix(
                #"{"ok":false,"command":"drag abc","error":"drag takes two numbers: DX DY (got \"abc\"), e.g. drag 60 -10","mode":"deck""#
            ))
        // The deck as it is after the refusal: still mid-drag at dx 30
        // (percentX 0.3, main 0.15, progress 0.15), top card at 187.5 + 30 = 217.5.
        #expect(
            refused.contains(
                #""progress":0.15,"like":0.3,"hate":0,"cards":[{"slot":0,"state":"first","profile":"m-1","name":"Mia","x":217.5,"y":273.5"#
            ))
        #expect(session.answer("back").hasPrefix(#"{"ok":false,"command":"back","error":"#))
        #expect(session.snapshot == before)
        #expect(!session.isFinished)
    }

    @Test(
        "every error carries mode and cards, the deck after the line",
        arguments: [
            "drag abc", "back", "release", "frobnicate", "undo", "help nothing",
        ])
    func errorsCarryTheDeck(line: String) throws {
        var session = try Fixture.session()
        let answer = session.answer(line)
        #expect(answer.hasPrefix(#"{"ok":false,"command":""#), "\(answer)")
        // Nothing happened: the four profiles at rest in slot order, m-1 on top.
        #expect(
            answer.contains(
                #","mode":"deck","progress":0,"like":0,"hate":0,"cards":[{"slot":0,"state":"first","profile":"m-1","name":"Mia","x":187.5,"y":273.5"#
            ), "\(answer)")
        #expect(answer.contains(#"{"slot":3,"state":"other","profile":"l-4","name":"Lou""#), "\(answer)")
    }

    @Test("an error in the detail view says mode detail, with the profile")
    func errorInDetail() throws {
        var session = try Fixture.session()
        _ = session.answer("open")
        let answer = session.answer("drag 10 0")
        #expect(answer.hasPrefix(#"{"ok":false,"command":"drag 10 0","error":"#), "\(answer)")
        #expect(
            answer.contains(#""mode":"detail""#) && answer.contains(#""detail":{"id":"m-1","name":"Mia""#), "\(answer)")
    }

    @Test("every input line gets exactly one object, blank lines and comments too")
    func oneObjectPerLine() throws {
        var session = try Fixture.session()
        for line in ["", "# comment", "deck", "help", "history", "matches", "physics stack", "quit"] {
            let answer = session.answer(line)
            #expect(answer.filter { $0 == "\n" }.count == 1, "\(line)")
            #expect(answer.hasPrefix("{\"ok\":true"), "\(line)")
        }
        #expect(session.isFinished)
    }

    @Test("cancel abandons a drag past the threshold: nothing decided, the top card back at rest")
    func cancelDecidesNothing() throws {
        let ledger = TestLedger()
        var session = try Fixture.session(ledger: ledger)
        _ = session.answer("drag 150 0")
        // A button mid-drag is refused; cancel springs every card back to rest:
        // first at (187.5, 273.5) unrotated, progress 0, though 150 > 100 would have liked on release.
        #expect(session.answer("like").hasPrefix(#"{"ok":false,"command":"like","error":"#))
        let line = session.answer("cancel")
        #expect(
            line.hasPrefix(
                #"{"ok":true,"command":"cancel","mode":"deck","progress":0,"like":0,"hate":0,"cards":[{"slot":0,"state":"first","profile":"m-1","name":"Mia","x":187.5,"y":273.5,"scale":1,"rotation":0,"alpha":1}"#
            ))
        #expect(!line.contains(#""decision""#))
        #expect(ledger.entries.isEmpty)
    }
}
