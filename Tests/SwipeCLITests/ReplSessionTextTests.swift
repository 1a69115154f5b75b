import SwipeCLI
import SwipeCore
import Testing

@Suite("REPL session, text answers a person reads")
struct ReplSessionTextTests {
    func lines(_ session: inout ReplSession<InMemoryFeed, FakeLedger>, _ line: String) -> [String] {
        session.answer(line).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("∅ no more cards comes after the decision that emptied the deck")
    func emptyAfterTheDecision() throws {
        var session = try Fixture.session(.text(.plain), profiles: [Fixture.profiles[0]])
        let answer = lines(&session, "like")
        let liked = answer.firstIndex { $0.hasPrefix("♥ liked Mia (m-1) by button") }
        let empty = answer.firstIndex { $0.hasPrefix("∅ no more cards") }
        #expect(liked != nil && empty != nil, "\(answer)")
        #expect(liked! < empty!, "\(answer)")
    }

    @Test("cancel with no drag says there was nothing to cancel")
    func cancelWithoutDrag() throws {
        var session = try Fixture.session(.text(.plain))
        #expect(lines(&session, "cancel").first == "nothing to cancel: no drag in progress")
        _ = session.answer("drag 30 0")
        #expect(!session.answer("cancel").contains("nothing to cancel"), "a real cancel says nothing of the sort")
    }

    @Test("reload on a full deck says so; on a dry feed says no new cards")
    func reloadSaysWhatHappened() throws {
        var full = try Fixture.session(.text(.plain))
        #expect(lines(&full, "reload").first == "the deck is full (4 cards): nothing to reload")
        // Three profiles: one slot is parked, and the feed has nothing for it.
        var partial = try Fixture.session(.text(.plain), profiles: Array(Fixture.profiles.prefix(3)))
        #expect(lines(&partial, "reload").first == "no new cards in the database")
        var json = try Fixture.session(profiles: Array(Fixture.profiles.prefix(3)))
        #expect(json.answer("reload").contains(#""note":"no new cards in the database""#))
    }

    @Test("the prompt shows where you are")
    func prompt() throws {
        var session = try Fixture.session(.text(.plain), profiles: [Fixture.profiles[0]])
        #expect(ReplPrompt.text(for: session.snapshot.mode) == "swipe> ")
        _ = session.answer("open")
        #expect(ReplPrompt.text(for: session.snapshot.mode) == "swipe[detail]> ")
        _ = session.answer("hate")
        #expect(ReplPrompt.text(for: session.snapshot.mode) == "swipe[empty]> ")
    }
}

@Suite("Did you mean")
struct SpellingTests {
    /// An independent model: the textbook recursive definition, memoised.
    static func reference(_ a: [Character], _ b: [Character]) -> Int {
        var memo: [Int: Int] = [:]
        func d(_ i: Int, _ j: Int) -> Int {
            if i == 0 { return j }
            if j == 0 { return i }
            if let known = memo[i * 100 + j] { return known }
            var best = min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, d(i - 2, j - 2) + 1) }
            memo[i * 100 + j] = best
            return best
        }
        return d(a.count, b.count)
    }

    @Test func distanceByHand() {
        #expect(Spelling.editDistance(Array("histroy"), Array("history")) == 1)  // one swap
        #expect(Spelling.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Spelling.editDistance(Array(""), Array("abc")) == 3)
        #expect(Spelling.editDistance(Array("ca"), Array("abc")) == 3)  // OSA: no edit of a swapped pair
    }

    @Test func distanceAgreesWithTheRecursiveDefinition() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let a = (0..<Int.random(in: 0...7, using: &generator)).map { _ in "abc".randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...7, using: &generator)).map { _ in "abc".randomElement(using: &generator)! }
            #expect(Spelling.editDistance(a, b) == Self.reference(a, b), "\(String(a)) \(String(b))")
        }
    }

    @Test func suggestions() {
        let commands = ["repl", "import", "history", "matches", "profiles", "profile", "stats", "help"]
        #expect(Spelling.suggestion(for: "histroy", among: commands) == "history")
        #expect(Spelling.suggestion(for: "MATCHS", among: commands) == "matches")
        #expect(Spelling.suggestion(for: "stat", among: commands) == "stats")
        #expect(Spelling.suggestion(for: "zzzz", among: commands) == nil)
        #expect(Spelling.suggestion(for: "profil", among: commands) == "profile")  // 1 from profile, 2 from profiles
    }
}
