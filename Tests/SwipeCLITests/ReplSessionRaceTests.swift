import Foundation
import SwipeCLI
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Testing

/// Two REPL sessions for the same viewer on one database, each over its own
/// connection as two `swipe repl` processes are. The session that loses a
/// race is told who won, and carries on by itself with a card nobody decided,
/// its undo history intact.
@Suite final class ReplSessionRaceTests {
    let temporary = TemporaryFolder("swipe-race")
    var folder: String { temporary.path }
    var path: String { folder + "/race.sqlite" }

    /// The viewer `v1`, then `a` to `f`. None of them acts, so the ranking
    /// cannot tell them apart and deals them in the viewer's tie-hash order
    /// (README "Ranking"): `v1` is a viewer for whom that order is a to f.
    init() throws {
        let store = try SQLiteStore(path: path)
        for id in ["v1", "a", "b", "c", "d", "e", "f"] {
            try store.upsert(Profile(id: id, name: "Name " + id, age: 30))
        }
        #expect(DiscoveryModel.tieOrder("v1", ["a", "b", "c", "d", "e", "f"]) == ["a", "b", "c", "d", "e", "f"])
    }

    /// A session for viewer `v1` over a connection of its own.
    func session(_ format: ReplFormat = .json) throws -> ReplSession {
        try .over(SQLiteStore(path: path), viewer: "v1", format: format)
    }

    /// The deck's profiles in state order (first, second, third, other); nil for a parked slot.
    func cards(_ session: ReplSession) -> [String?] {
        session.snapshot.cards.map { $0.profile?.id }
    }

    /// Every decision `v1` holds, as profile ids, oldest first (undone ones included).
    func decisions() throws -> [String] {
        try SQLiteStore(path: path).history(HistoryQuery(viewer: "v1")).map(\.profile).reversed()
    }

    static let lost = #"{"ok":false,"command":"like","error":"v1 already decided like on a at "#
    static let left = #" (in another session); that card leaves the deck","mode":"deck""#

    @Test func theLoserIsToldThenItsTopCardIsOneNeitherSessionDecided() throws {
        var first = try session(), second = try session()
        #expect(cards(first) == ["a", "b", "c", "d"])
        #expect(cards(second) == ["a", "b", "c", "d"])
        #expect(second.answer("like").contains(#""decision":{"profile":"a","decision":"like""#))

        let answer = first.answer("like")
        #expect(answer.hasPrefix(Self.lost), "\(answer)")
        #expect(answer.contains(Self.left), "\(answer)")
        // a left slot 0, which went to the back: b, in slot 1, is on top.
        #expect(answer.contains(#""cards":[{"slot":1,"state":"first","profile":"b""#), "\(answer)")
        #expect(cards(first) == ["b", "c", "d", "e"])
        #expect(try decisions() == ["a"])

        // The loser goes on by itself, and now the other one loses the next race.
        #expect(first.answer("like").contains(#""decision":{"profile":"b","decision":"like""#))
        #expect(second.answer("hate").contains(#""error":"v1 already decided like on b at "#))
        #expect(cards(second) == ["c", "d", "e", "f"])
        #expect(try decisions() == ["a", "b"])
    }

    @Test func theLoserSkipsEveryCardTheWinnerTookMeanwhile() throws {
        var first = try session(), second = try session()
        for command in ["like", "hate", "superlike"] { #expect(second.answer(command).contains(#""ok":true"#)) }
        let answer = first.answer("like")
        #expect(answer.hasPrefix(Self.lost))
        #expect(
            answer.contains(#" (in another session); that card leaves the deck, and so do b, c, decided there too""#),
            "\(answer)")
        // a, b and c are decided: d, e and f are left for the four slots, the fourth parked.
        #expect(cards(first) == ["d", "e", "f", nil])
        #expect(try decisions() == ["a", "b", "c"])
    }

    @Test func aLostDragOrDetailDecisionRecoversTheSameWay() throws {
        var first = try session(), second = try session()
        _ = second.answer("like")
        _ = first.answer("drag 120 0")
        let released = first.answer("release")
        #expect(released.contains(#""error":"v1 already decided like on a at "#), "\(released)")
        #expect(cards(first) == ["b", "c", "d", "e"])

        _ = first.answer("open")  // the detail page of b
        _ = second.answer("hate")  // b, from the other session
        let fromDetail = first.answer("like")
        #expect(fromDetail.contains(#""error":"v1 already decided hate on b at "#), "\(fromDetail)")
        #expect(fromDetail.contains(#""mode":"deck""#), "the detail page of a card that is gone is closed")
        #expect(cards(first) == ["c", "d", "e", "f"])
        #expect(try decisions() == ["a", "b"])
    }

    /// The lost card leaves; the loser's own decisions stay undoable. By the
    /// slot rules (README, "The deck model"): a leaves slot 0, which is refilled with e;
    /// b is withdrawn from slot 1, refilled with f; so the order is c d e f
    /// in slots 2 3 0 1, and undo puts a back into slot 0 on top (e leaves).
    @Test func undoStillTakesBackTheLosersOwnDecision() throws {
        var first = try session()
        _ = first.answer("hate")  // a
        var second = try session()
        #expect(cards(second) == ["b", "c", "d", "e"])
        _ = second.answer("like")  // b
        #expect(first.answer("like").contains(#""error":"v1 already decided like on b at "#))
        #expect(cards(first) == ["c", "d", "e", "f"])
        #expect(first.snapshot.cards.map(\.slot) == [2, 3, 0, 1])

        let undone = first.answer("undo")
        #expect(undone.hasPrefix(#"{"ok":true"#), "\(undone)")
        #expect(cards(first) == ["a", "c", "d", "f"])
        let a = try #require(try SQLiteStore(path: path).history(HistoryQuery(viewer: "v1", profile: "a")).first)
        #expect(a.decision == .hate && a.undoneAt != nil)
        #expect(try decisions() == ["a", "b"])
    }

    @Test func textModePrintsTheErrorThenTheNewDeck() throws {
        var first = try session(.text(ReplStyle(color: false))), second = try session()
        first.layout.view = .full  // the pose table names the card on top
        _ = second.answer("like")
        let lines = first.answer("like").split(separator: "\n").map(String.init)
        // The error wraps at word boundaries to the 80 columns of the layout,
        // its continuation lines under the text after "error: ".
        let errorLines = [lines[0]] + lines.dropFirst().prefix { $0.hasPrefix("       ") && !$0.contains("╭") }
        #expect(errorLines.count > 1 && errorLines.allSatisfy { TerminalText.displayWidth($0) <= 80 })
        let error = errorLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(error.hasPrefix("error: v1 already decided like on a at "))
        #expect(error.hasSuffix(" (in another session); that card leaves the deck"))
        #expect(lines.dropFirst().contains { $0.contains("Name b, 30") }, "the picture shows b on top")
        #expect(lines.contains { $0.hasPrefix("first") && $0.contains(" b ") }, "\(lines)")
    }
}
