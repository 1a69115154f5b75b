import SwipeCore
import SwipeSession

/// The detail page: the whole profile, every piece of text sanitized (the
/// bio keeps its line breaks), wrapped to 80 columns, and what can be done
/// from here.
public struct DetailView: Sendable {
    public static let width = 80
    static let labelWidth = 11

    public var profile: Profile
    public var style: ReplStyle
    /// Whether the last line lists what the REPL can do from here (the
    /// REPL's page); without it the page ends with a plain rule (`swipe profile`).
    public var showsActions = true
    /// Columns the page may use (the terminal's, at most `DetailView.width`).
    public var width = DetailView.width

    public init(_ profile: Profile, style: ReplStyle) {
        self.profile = profile
        self.style = style
    }

    public var lines: [String] {
        let name = TerminalText.sanitized(profile.name)
        var title = "\(name), \(profile.age)"
        if let city = profile.city.map({ TerminalText.sanitized($0) }), !city.isEmpty { title += " · " + city }
        let shownTitle = TerminalText.truncated(title, toWidth: width - 4)
        let rule = String(repeating: "─", count: max(0, width - 4 - TerminalText.displayWidth(shownTitle)))
        var lines = ["╭─ " + style.paint(shownTitle, .bold) + " " + rule]
        func field(_ label: String, _ text: String) {
            let room = width - 2 - Self.labelWidth
            for (index, line) in Self.wrap(text, width: room).enumerated() {
                let head =
                    index == 0
                    ? TerminalText.padded(label, to: Self.labelWidth) : String(repeating: " ", count: Self.labelWidth)
                lines.append("│ " + style.paint(head, .dim) + line)
            }
        }
        field("id", TerminalText.sanitized(profile.id))
        field("age", String(profile.age))
        if let gender = profile.gender, !gender.isEmpty { field("gender", TerminalText.sanitized(gender)) }
        if let city = profile.city, !city.isEmpty { field("city", TerminalText.sanitized(city)) }
        if let bio = profile.bio, !bio.isEmpty { field("bio", TerminalText.sanitized(bio, keepNewlines: true)) }
        if !profile.interests.isEmpty {
            field("interests", profile.interests.map { TerminalText.sanitized($0) }.joined(separator: " · "))
        }
        for (index, photo) in profile.photos.enumerated() {
            field(index == 0 ? "photos" : "", TerminalText.sanitized(photo))
        }
        let wants = profile.preferences
        var seeks = wants.seeking.isEmpty ? "everyone" : TerminalText.sanitized(wants.seeking.joined(separator: ", "))
        seeks += ", \(wants.ageMin)–\(wants.ageMax)"
        if let km = wants.maxKm { seeks += ", within " + ReplAnswer.kilometres(km) + " km" }
        field("seeking", seeks)
        let actions = [
            style.paint("like", .like), style.paint("hate", .hate), style.paint("superlike", .superlike), "back",
        ]
        lines.append(showsActions ? "╰─ " + actions.joined(separator: " · ") : "╰─")
        return lines
    }

    /// `text` broken at its newlines, then at spaces so no line is wider than
    /// `width` columns (a word wider than that is cut, never overflowing).
    static func wrap(_ text: String, width: Int) -> [String] {
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                while TerminalText.displayWidth(word) > width {
                    if !line.isEmpty { out.append(line); line = "" }
                    let head = TerminalText.truncated(word, toWidth: width)
                    out.append(head)
                    word = String(word.dropFirst(head.count - 1))
                }
                if line.isEmpty {
                    line = word
                } else if TerminalText.displayWidth(line) + 1 + TerminalText.displayWidth(word) <= width {
                    line += " " + word
                } else {
                    out.append(line)
                    line = word
                }
            }
            out.append(line)
        }
        return out
    }
}
