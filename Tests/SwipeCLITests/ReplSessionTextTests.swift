import SwipeCLI
import SwipeCore
import SwipeSession
import Testing

@Suite("REPL session, text answers a person reads")
struct ReplSessionTextTests {
    func lines(_ session: inout ReplSession, _ line: String) -> [String] {
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

    @Test("view says which view is on and switches it; help lists the one-key gestures")
    func viewAndKeys() throws {
        var session = try Fixture.session(.text(.plain))
        #expect(session.answer("view").hasPrefix("view compact: the picture and one line of numbers"))
        let full = session.answer("view full")
        #expect(full.contains("state  slot  profile"), "view full draws the pose table")
        #expect(session.layout.view == .full)
        let compact = session.answer("view compact")
        #expect(!compact.contains("state  slot  profile") && compact.contains("tantan · at rest"))
        #expect(session.answer("view sideways").hasPrefix("error: view takes compact or full"))
        let help = session.answer("help")
        #expect(
            help.contains("←  nope") && help.contains("Shift-↑ or Alt-↑  superlike") && help.contains("Backspace  undo")
        )
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

@Suite("The picture at any width")
struct DeckPictureWidthTests {
    @Test(
        "every line fits, the buttons' row is clear of the cards, at every width from 40 to 300",
        arguments: [40, 45, 50, 59, 60, 61, 79, 80, 81, 100, 119, 120, 121, 200, 300])
    func fits(width: Int) throws {
        var session = try Fixture.session(.text(.plain))
        for line in ["deck", "drag 60 -10", "drag -250 0", "drag 0 300", "cancel"] {
            _ = session.answer(line)
            let picture = DeckPicture(session.snapshot, style: .plain, width: width).lines
            for row in picture {
                #expect(TerminalText.displayWidth(row) <= width, "\(line) at \(width): \(row)")
            }
            // The last row holds the three buttons and, unless a card was
            // dragged down over them, nothing of a card.
            let buttons = try #require(picture.last)
            #expect(buttons.contains("( ★ )") || line == "drag 0 300", "\(line) at \(width)")
            if line != "drag 0 300" {
                #expect(!buttons.contains("─") && !buttons.contains("│"), "\(line) at \(width): \(buttons)")
            }
        }
        // Compact under 60 columns: short buttons; full labels from 60.
        let resting = DeckPicture(session.snapshot, style: .plain, width: width).lines.last ?? ""
        #expect(resting.contains("NOPE") == (width >= 60), "\(width): \(resting)")
    }

    @Test("a long name is cut before the age is, at every width", arguments: [40, 45, 59, 80])
    func ageStaysVisible(width: Int) throws {
        let long = Profile(id: "h-1", name: "Hannah Goldberg-Weissmann", age: 37, city: "Ciudad de México")
        var session = try Fixture.session(.text(.plain), profiles: [long] + Fixture.profiles)
        _ = session.answer("deck")
        let picture = DeckPicture(session.snapshot, style: .plain, width: width).lines
        #expect(picture.contains { $0.contains(", 37 ") }, "\(width): \(picture.joined(separator: "\n"))")
    }

    @Test(
        "a tilted card keeps one width on every row: its border does not wobble",
        arguments: [40, 80, 120])
    func tiltedCardKeepsItsWidth(width: Int) throws {
        // One profile: one card on the deck, so every border drawn is its own.
        var session = try Fixture.session(.text(.plain), profiles: [Fixture.profiles[0]])
        for drag in ["drag 0 0", "drag 50 0", "drag 60 -10", "drag -130 20", "drag 200 0"] {
            _ = session.answer(drag)
            let picture = DeckPicture(session.snapshot, style: .plain, width: width).lines
            let widths: [Int] = picture.compactMap { row in
                let characters = Array(row)
                guard let left = characters.firstIndex(where: { "╭│╰".contains($0) }),
                    let right = characters.lastIndex(where: { "╮│╯".contains($0) }), right > left
                else { return nil }
                return right - left
            }
            #expect(widths.count >= 5, "\(drag) at \(width): \(picture.joined(separator: "\n"))")
            #expect(Set(widths).count == 1, "\(drag) at \(width): widths \(widths)")
        }
    }

    @Test(
        "the scale follows the width: a 100-point drag moves the card 10 columns at 80, 15 at 120 and beyond, 5 at 40")
    func scale() throws {
        var session = try Fixture.session(.text(.plain))
        /// The column of the top card's city, on its middle row (where the tilt shifts next to nothing).
        func leftEdge(_ width: Int) -> Int {
            let row =
                DeckPicture(session.snapshot, style: .plain, width: width).lines.first { $0.contains("Lisbon") } ?? ""
            return row.distance(from: row.startIndex, to: row.range(of: "Lisbon")?.lowerBound ?? row.startIndex)
        }
        for (width, columns) in [(80, 10), (120, 15), (200, 15), (40, 5)] {
            _ = session.answer("cancel")
            let rest = leftEdge(width)
            _ = session.answer("drag 100 0")
            #expect(leftEdge(width) - rest == columns, "at \(width)")
        }
    }
}
