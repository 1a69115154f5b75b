import SwipeCore

/// Tab completion for the REPL line, kept pure so it is tested without a
/// terminal: the line editor hands in the text left of the cursor and inserts
/// `insertion`.
public struct ReplCompletion: Hashable, Sendable {
    /// The partial word under the cursor.
    public var prefix: String
    /// Every word that could complete it, sorted.
    public var candidates: [String]

    /// What to type for the person: the rest of the common prefix of all
    /// candidates, plus a space when the completion is unique.
    public var insertion: String {
        guard let first = candidates.first else { return "" }
        if candidates.count == 1 { return String(first.dropFirst(prefix.count)) + " " }
        var common = first
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(common) { common.removeLast() }
        }
        return String(common.dropFirst(prefix.count))
    }

    /// Completes `prefix` from `candidates` (those that do not begin with it
    /// are left out): a prompt that asks for one word, such as a profile id.
    public init(prefix: String, candidates: [String]) {
        self.prefix = prefix
        // As for the line's words: an id with a control character is never listed.
        self.candidates = Set(candidates.filter { $0.hasPrefix(prefix) && TerminalText.isClean($0) }).sorted()
    }

    /// Completes the word before the cursor: command names first; then,
    /// by command, physics names (`physics`), command names (`help`) or
    /// profile ids (`history`). `profileIDs` is evaluated only when a
    /// profile id is what completes: a Tab on any other word costs no query.
    public init(lineBeforeCursor line: String, profileIDs: @autoclosure () -> [String]) {
        let endsInSpace = line.last?.isWhitespace ?? true
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let prefix = endsInSpace ? "" : (words.popLast() ?? "")
        self.prefix = prefix
        let vocabulary: [String]
        if words.isEmpty {
            vocabulary = ReplVerb.allSpellings
        } else if words.count == 1, let verb = ReplVerb.spellings[words[0].lowercased()] {
            switch verb {
            case .physics: vocabulary = PhysicsKind.allCases.map(\.rawValue)
            case .view: vocabulary = ReplView.allCases.map(\.rawValue)
            case .help: vocabulary = ReplVerb.allCases.map(\.rawValue)
            case .history, .block, .unblock, .unmatch, .report: vocabulary = profileIDs()
            case .prefs: vocabulary = ["age", "seeking", "km", "location"]
            default: vocabulary = []
            }
        } else {
            vocabulary = []
        }
        // An id with a control character in it is never listed nor
        // inserted: it would reach the terminal raw (and cannot be typed).
        candidates = Set(vocabulary.filter { $0.hasPrefix(prefix) && TerminalText.isClean($0) }).sorted()
    }
}
