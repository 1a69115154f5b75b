import SwipeCore
import SwipeSession
import SwipeStore

extension ReplAnswer {
    /// The answer for people: the steps the deck took, then the picture and
    /// its numbers (or the detail page), or the listing asked for.
    func textLines(style: ReplStyle, layout: ReplLayout = ReplLayout()) -> [String] {
        // Decisions are listed after the animations that carry them out, the
        // order a person sees (the deck stores them first, before the refill).
        // The empty state comes last, once, after what the command says: it
        // is the consequence of the decision, or the change of preferences,
        // that took the last card (withdrawing cards and then asking the feed
        // again both find the deck empty: one line says so).
        let records = actions.filter(\.isRecord)
        let steps = actions.filter { !$0.isRecord && !$0.isBecameEmpty }
        // At a terminal, prose wraps at word boundaries to its width.
        let prose = { (text: String) in
            layout.pictures
                ? TerminalText.wrappedLines(text, width: layout.width)
                : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var lines = (steps + records).compactMap { stepLine($0, style: style) }.flatMap(prose)
        let empty = actions.contains(where: \.isBecameEmpty) ? stepLine(.becameEmpty, style: style) : nil
        if let note { lines += prose(note) }
        if let help { lines += prose(help) }
        if let history {
            lines += Self.historyLines(history, style: style, width: layout.pictures ? layout.width : nil)
        }
        if let matches { lines += Self.matchLines(matches, style: style) }
        if let matchActivity { lines += Self.matchActivityLines(matchActivity, style: style) }
        if let discovery { lines += Self.discoveryLines(discovery, style: style) }
        if let conversation { lines += Self.conversationLines(conversation, style: style) }
        if let opened {
            var page = DetailView(opened, style: style)
            page.width = Self.pageWidth(layout)
            lines += prose("→ opened the profile of " + Self.who(opened))
            lines += page.lines
        }
        if let me { lines += Self.meLines(me, style: style, width: Self.pageWidth(layout)) }
        if let exported { lines += exported.textLines }
        if let moderation { lines += Self.moderationLines(moderation) }
        if let insights { lines += Self.insightLines(insights, style: style) }
        if let empty { lines.append(empty) }
        if quit { lines.append("bye") }
        guard showsDeck else { return lines }
        guard layout.pictures || asked else {
            // Outcome lines only (a script's log): a gesture that decided
            // nothing still says where it got to.
            if lines.isEmpty, snapshot.dragging != nil { lines.append(DeckNumbers(snapshot, style: style).summary) }
            return lines
        }
        if case .detail(let profile) = snapshot.mode {
            var page = DetailView(profile, style: style)
            page.width = Self.pageWidth(layout)
            lines += page.lines
        } else {
            lines += DeckPicture(snapshot, style: style, width: layout.width).lines
            let numbers = DeckNumbers(snapshot, style: style)
            let width = min(max(layout.width, DeckPicture.widths.lowerBound), DeckPicture.widths.upperBound)
            lines += layout.view == .full ? numbers.lines : numbers.summaryLines(width: width)
        }
        return lines
    }

    /// One line for a step the deck took; nil for bookkeeping (`load`).
    private func stepLine(_ action: DeckAction, style: ReplStyle) -> String? {
        switch action {
        case .record(let decision):
            let receipt = decisions.first { $0.0 == decision }?.1
            var line = Self.decisionLine(decision, style: style)
            if let receipt { line += style.paint(" · saved " + receipt.decidedAt, .dim) }
            if receipt?.match != nil {
                line += "\n" + style.paint("★ It's a match! \(Self.who(decision.profile)) likes you too.", .superlike)
            }
            return line
        case .unrecord(let decision):
            let ended =
                endedMatches.contains(decision.profile.id)
                ? "; your match with " + TerminalText.oneLine(decision.profile.name)
                    + " ended, and its conversation with it" : ""
            return "↶ took back " + decision.decision.rawValue + " of " + Self.who(decision.profile) + ended
        case .animate(let timeline):
            return style.paint("↷ " + timeline.summary, .accent)
        case .showDetail(let profile):
            return "→ opened the detail page of " + Self.who(profile)
        case .closeDetail:
            return "← closed the detail page, back to the deck"
        case .becameEmpty:
            return style.paint("∅ no more cards: reload asks the database again", .bold)
        case .queued(let event):
            return "… queued until the animation ends: " + TerminalText.sanitized(event.replSpelling)
        case .refused(let event, let refusal):
            let what = TerminalText.sanitized(event.replSpelling)
            return style.paint("… " + what + " was not applied: " + refusal.replMessage, .error)
        case .load:
            return nil
        }
    }

    static func decisionLine(_ decision: DeckDecision, style: ReplStyle) -> String {
        let (mark, verb, tone): (String, String, ReplStyle.Tone) =
            switch decision.decision {
            case .like: ("♥", "liked", .like)
            case .hate: ("✕", "noped", .hate)
            case .superlike: ("★", "superliked", .superlike)
            }
        return style.paint(mark + " " + verb, tone) + " " + who(decision.profile) + " by " + decision.via.rawValue
    }

    /// The columns a detail page (an opened profile, `me`) takes: the
    /// terminal's, from 40 up to the page's 80.
    static func pageWidth(_ layout: ReplLayout) -> Int {
        min(max(layout.width, DeckPicture.widths.lowerBound), DetailView.width)
    }

    /// The history as a table; narrower than its 80 columns (`width`, a
    /// terminal's), each entry takes two lines: when and what, then who and how.
    static func historyLines(_ entries: [HistoryEntry], style: ReplStyle, width: Int? = nil) -> [String] {
        guard !entries.isEmpty else { return ["no decisions yet"] }
        if let width, width < 80 {
            var lines = [style.paint("decided at                decision", .dim), style.paint("  profile · via", .dim)]
            for entry in entries {
                lines.append(TerminalText.padded(entry.decidedAt, to: 26) + entry.decision.rawValue)
                let who = TerminalText.sanitized(entry.profile) + " " + TerminalText.sanitized(entry.name)
                lines.append(
                    "  " + TerminalText.truncated(who, toWidth: max(10, width - 5 - entry.via.rawValue.count)) + " · "
                        + entry.via.rawValue)
                if let undone = entry.undoneAt { lines.append(style.paint("  (undone " + undone + ")", .dim)) }
            }
            return lines
        }
        var lines = [style.paint("decided at                decision   via     profile", .dim)]
        for entry in entries {
            let name = " " + TerminalText.sanitized(entry.name)
            var line =
                TerminalText.padded(entry.decidedAt, to: 26) + TerminalText.padded(entry.decision.rawValue, to: 11)
                + TerminalText.padded(entry.via.rawValue, to: 8)
                + TerminalText.truncated(TerminalText.sanitized(entry.profile) + name, toWidth: 24)
            lines.append(line)
            if let undone = entry.undoneAt {
                let note = " (undone " + undone + ")"
                // On a terminal too narrow for it beside the entry, under it.
                if let width, TerminalText.displayWidth(line + note) > width {
                    lines.append(String(repeating: " ", count: 45) + style.paint(note, .dim))
                } else {
                    lines[lines.count - 1] += style.paint(note, .dim)
                }
            }
        }
        return lines
    }

    /// `insights`: a row per period, the counts a person asks about first,
    /// in 40 columns (every key is in JSON mode and `swipe insights`).
    static func insightLines(_ rows: [InsightRow], style: ReplStyle) -> [String] {
        func cell(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        let header = "period    " + cell("likes", 6) + cell("match", 6) + cell("/100", 6) + cell("chats", 6)
        var lines = [style.paint(header, .dim)]
        for row in rows {
            let per100 = row.matchesPer100Likes.map { String(Int($0.rounded())) } ?? "–"
            lines.append(
                TerminalText.padded(row.period, to: 10) + cell(String(row.likes + row.superlikes), 6)
                    + cell(String(row.matches), 6) + cell(per100, 6) + cell(String(row.conversations), 6))
        }
        if rows.allSatisfy({ $0.likes + $0.superlikes + $0.hates + $0.matches + $0.conversations == 0 }) {
            lines.append("nothing in this range yet: your likes and matches are counted here as they happen")
        }
        return lines
    }

    /// `matches --with-messages`: each match as `matches` lists it, then its
    /// conversation in a few words on the line under it (the pair fits a
    /// narrow terminal where one line would not).
    static func matchActivityLines(_ matches: [MatchActivity], style: ReplStyle) -> [String] {
        guard !matches.isEmpty else { return ["no matches yet"] }
        return matches.flatMap { match in
            let talk =
                match.lastMessageAt.map {
                    "\(match.messages) message" + (match.messages == 1 ? "" : "s") + ", last " + $0
                }
                ?? "no messages yet"
            return [
                style.paint("★", .superlike) + " " + TerminalText.oneLine(match.profile) + " "
                    + TerminalText.oneLine(match.name) + style.paint(" · matched " + match.matchedAt, .dim),
                style.paint("  " + talk, .dim),
            ]
        }
    }

    static func matchLines(_ matches: [Match], style: ReplStyle) -> [String] {
        guard !matches.isEmpty else { return ["no matches yet"] }
        return matches.map { match in
            let name = " " + TerminalText.oneLine(match.name)
            return style.paint("★", .superlike) + " " + TerminalText.oneLine(match.profile) + name
                + style.paint(" · matched " + match.matchedAt, .dim)
        }
    }
}

extension DeckAction {
    var isRecord: Bool {
        if case .record = self { true } else { false }
    }

    var isBecameEmpty: Bool {
        if case .becameEmpty = self { true } else { false }
    }
}

extension Timeline {
    /// A short description: "fly-out right 0.3 s". The direction is where the
    /// card that leaves ends up (off the screen's right, left, top or bottom).
    var summary: String {
        var words = [TerminalText.sanitized(name)]
        let (width, height) = (DeckGeometry.screenWidth, DeckGeometry.screenHeight)
        if let last = keyframes.last,
            let leaving = last.cards.first(where: {
                $0.pose.center.x > width || $0.pose.center.x < 0 || $0.pose.center.y < 0 || $0.pose.center.y > height
            })
        {
            let center = leaving.pose.center
            words.append(center.x > width ? "right" : center.x < 0 ? "left" : center.y < 0 ? "up" : "down")
        }
        words.append(DeckNumbers.fixed(duration, 2).withoutTrailingZeros() + " s")
        return words.joined(separator: " ")
    }
}

extension String {
    /// "0.30" → "0.3", "1.0" → "1": durations without needless zeros.
    func withoutTrailingZeros() -> String {
        guard contains(".") else { return self }
        var text = self
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
