import SwipeCore
import SwipeSession
import SwipeStore

/// The REPL's text driver over the typed session: a line in, the answer
/// written as text (or as one JSON line in JSON mode).
extension ReplSession {
    /// What `deck` prints now in text mode, at `width` columns: the picture
    /// (or the detail page) and its numbers. For redrawing after a resize.
    public func deckLines(width: Int) -> [String] {
        guard case .text(let style) = format else { return [] }
        var answer = ReplAnswer(snapshot: snapshot)
        answer.showsDeck = true
        answer.asked = true
        var layout = self.layout
        layout.width = width
        return answer.textLines(style: style, layout: layout)
    }

    /// Runs one input line and writes its answer. Returns false when the line
    /// failed (unparsable, refused by the deck, or the store failed).
    /// A blank line or `#` comment prints nothing in text mode; in JSON mode
    /// every line gets its one object (`ok`, and the deck as it is).
    @discardableResult
    public mutating func run(_ line: String, into out: inout some TextOutputStream) -> Bool {
        run(ReplLine(line), into: &out)
    }

    @discardableResult
    public mutating func run(_ line: ReplLine, into out: inout some TextOutputStream) -> Bool {
        let outcome = perform(line)
        switch format {
        case .json:
            JSONValue.object(
                Self.jsonMembers(
                    outcome, command: line.text, snapshot: snapshot,
                    profile: ReplAnswer.profileObject) + line.objectMembers
            ).write(to: &out)
            out.write("\n")
        case .text(let style):
            for text in textLines(outcome, style: style) { out.write(text + "\n") }
        }
        return outcome.succeeded
    }

    /// The outcome as text: nothing for a blank line; an error (wrapped to
    /// the terminal when pictures are drawn), then the picture only when the
    /// failure changed the deck.
    private func textLines(_ outcome: Outcome, style: ReplStyle) -> [String] {
        switch outcome {
        case .blank:
            return []
        case .answer(let answer):
            return answer.textLines(style: style, layout: layout)
        case .failure(let refusal, let deck):
            let text = "error: " + TerminalText.sanitized(refusal.message, keepNewlines: true)
            let lines = layout.pictures ? TerminalText.wrappedLines(text, width: layout.width, hang: 7) : [text]
            return lines.map { style.paint($0, .error) } + (deck?.textLines(style: style, layout: layout) ?? [])
        }
    }
}
