import SwipeCLI
import SwipeCore
import SwipeSession
import Testing

/// The deck refuses in its own terms; the REPL adds the command that gets
/// past the refusal (SwipeCore speaks no REPL).
@Suite("REPL wording of the deck's refusals")
struct ReplRefusalWordingTests {
    /// Runs `setup`, then `line`, in text mode; returns the first line `line` printed.
    func refusal(after setup: [String], _ line: String, profiles: [Profile] = Fixture.profiles) throws -> String {
        var session = try Fixture.session(.text(ReplStyle(color: false)), profiles: profiles)
        for step in setup { _ = session.answer(step) }
        return String(session.answer(line).split(separator: "\n").first ?? "")
    }

    @Test(arguments: [
        ([], "release", "error: nothing to release; drag first"),
        (["drag 30 0"], "like", "error: a drag is in progress; release or cancel it first"),
        (["drag 30 0"], "physics stack", "error: a drag is in progress; release or cancel it first"),
        (["open"], "drag 10 0", "error: the detail view is open; go back first"),
        (["open"], "reload", "error: the detail view is open; go back first"),
        ([], "back", "error: no detail view is open"),
        ([], "undo", "error: nothing to undo"),
    ])
    func worded(setup: [String], line: String, expected: String) throws {
        #expect(try refusal(after: setup, line) == expected)
    }

    @Test func anEmptyDeckSuggestsReload() throws {
        #expect(try refusal(after: [], "like", profiles: []) == "error: no card on the deck; try reload")
    }

    @Test func theCoreSaysNothingOfTheREPL() {
        let refusals: [DeckRefusal] = [
            .init(reason: .noCard, description: "no card on the deck"),
            .init(reason: .gestureInProgress, description: "a drag is in progress"),
        ]
        #expect(
            refusals.map(\.replMessage) == [
                "no card on the deck; try reload", "a drag is in progress; release or cancel it first",
            ])
        var deck = Deck()
        do {
            _ = try deck.button(.like)
            Issue.record("an empty deck took a button")
        } catch {
            #expect(error.description == "no card on the deck")
        }
    }
}
