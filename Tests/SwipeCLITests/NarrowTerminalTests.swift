import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// At a terminal every answer fits its width, down to 40 columns: the
/// history (two lines an entry below 80), `me` and an opened profile (the
/// page at the terminal's width), as the card and `help` already did.
@Suite final class NarrowTerminalTests {
    let temporary = TemporaryFolder("swipe-narrow")
    var path: String { temporary.path + "/narrow.sqlite" }

    init() throws {
        let store = try SQLiteStore(path: path)
        let bio = "A long bio with words of every size, and one unbroken https://example.org/a/very/long/path/indeed"
        var viewer = Profile(id: "v", name: "Valentina Maximiliana Ortega-Szczepańska", age: 33, bio: bio)
        viewer.city = "Rio de Janeiro"
        viewer.interests = ["climbing", "slow cooking", "open source", "sailing at night"]
        try store.upsert(viewer)
        for n in 1...6 {
            try store.upsert(Profile(id: "p-\(n)", name: "Person Number \(n) With A Long Name", age: 30, bio: bio))
        }
        for n in 1...4 {
            _ = try store.record(viewer: "v", profile: "p-\(n)", decision: n == 2 ? .superlike : .like, via: .button)
        }
    }

    @Test(arguments: [40, 41, 55, 79, 80, 120])
    func everyLineFitsTheTerminal(width: Int) throws {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .text(.plain))
        session.layout.width = width
        for line in ["history", "me", "open p-5", "back", "deck", "undo", "history"] {
            var out = ""
            session.run(line, into: &out)
            for text in out.split(separator: "\n") {
                #expect(
                    TerminalText.displayWidth(String(text)) <= width,
                    "\(line) at \(width) columns: \(TerminalText.displayWidth(String(text))) wide: \(text)")
            }
        }
    }

    @Test func narrowHistoryKeepsEveryFieldOfEveryEntry() throws {
        var session = try ReplSession.over(SQLiteStore(path: path), viewer: "v", format: .text(.plain))
        session.layout.width = 40
        var out = ""
        session.run("history", into: &out)
        let history = try SQLiteStore(path: path).history(HistoryQuery(viewer: "v"))
        #expect(history.count == 4)
        for entry in history {
            #expect(out.contains(entry.decidedAt + "  " + entry.decision.rawValue), "\(out)")
            #expect(out.contains("  " + entry.profile + " Person Number"), "\(out)")
        }
        #expect(out.components(separatedBy: " · button").count == 5, "\(out)")
    }
}
