import SwipeCore
import SwipeSession
import SwipeStore

extension MeAnswer {
    /// The text lines (`ReplAnswer.meLines`).
    public func textLines(style: ReplStyle) -> [String] { ReplAnswer.meLines(self, style: style) }
}

extension ReplAnswer {
    /// `me`: the detail page as others see it, then the preferences; after
    /// `me set`, the one line saying what was saved.
    static func meLines(_ me: MeAnswer, style: ReplStyle, width: Int = DetailView.width) -> [String] {
        if let notice = me.notice { return [TerminalText.sanitized(notice)] }
        var page = DetailView(me.profile, style: style)
        page.width = width
        page.showsActions = false
        return page.lines + preferenceLines(me.profile)
    }
}

extension ExportAnswer {
    /// Text: the document as `swipe export` prints it (its strings are JSON
    /// escaped, control characters included, so it is safe at a terminal),
    /// or one line saying where it went.
    var textLines: [String] {
        guard let file else {
            return document.json.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        return [
            "wrote \(TerminalText.oneLine(document.viewer))'s data to \(TerminalText.sanitized(file)) "
                + "(\(bytes) bytes, JSON as swipe export writes it)"
        ]
    }
}
