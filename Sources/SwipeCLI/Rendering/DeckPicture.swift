import Foundation
import SwipeCore
import SwipeSession

/// The deck drawn in box-drawing characters, as a finger would see it.
///
/// The 375 × 667-point screen is scaled to the terminal's width: at 80
/// columns one column is 10 points and one row 25 points, so the 350 × 400
/// card is 35 × 16 cells and a 100-point drag moves it 10 columns; the scale
/// grows with the width up to 120 columns (beyond, the extra columns are
/// room for cards on their way out) and shrinks down to 40 columns, where
/// the card is compact (under 60: short buttons). The screen sits in the
/// middle with room on both sides. Rotation shears the rows (the top of a
/// card turned clockwise moves right), the LIKE/NOPE stamps appear in bands
/// of their alphas, and the bottom buttons swell as their borders thin.
public struct DeckPicture: Sendable {
    /// The width drawn when the terminal's is unknown (a pipe, a file).
    public static let width = 80
    public static let widths = 40...300
    /// Under this many columns the card is compact.
    public static let compactBelow = 60
    /// The y (in points) drawn on row 0: the resting top card's top edge.
    static let topY = DeckGeometry.restCenter.y - DeckGeometry.cardHeight / 2

    public var snapshot: DeckSnapshot
    public var style: ReplStyle
    /// Columns the picture may use (clamped to `widths`).
    public let width: Int
    /// Cells per 10 points across and per 25 points down.
    let scale: Double
    var compact: Bool { width < Self.compactBelow }
    var pointsPerColumn: Double { 10 / scale }
    var pointsPerRow: Double { 25 / scale }
    /// Rows of cards: the resting top card's height, then its bottom edge
    /// and one row for each of the two cards below it; the buttons follow.
    var cardRows: Int { Int((DeckGeometry.cardHeight / pointsPerRow).rounded()) + 3 }
    /// The column of screen x = 0: the screen is centred.
    var screenLeftColumn: Double { (Double(width) - DeckGeometry.screenWidth / pointsPerColumn) / 2 }

    public init(_ snapshot: DeckSnapshot, style: ReplStyle, width: Int = DeckPicture.width) {
        self.snapshot = snapshot
        self.style = style
        self.width = min(max(width, Self.widths.lowerBound), Self.widths.upperBound)
        self.scale = Double(min(self.width, 120)) / 80
    }

    /// The picture's lines (no trailing newline).
    public var lines: [String] {
        var canvas = TextCanvas(width: width, height: cardRows + 1)
        if snapshot.mode == .empty || snapshot.cards.allSatisfy({ $0.profile == nil }) {
            drawEmpty(on: &canvas)
        } else {
            let frames = cardFrames()
            for frame in frames.reversed() { draw(frame, on: &canvas) }
        }
        drawButtons(on: &canvas)
        return canvas.lines(style: style)
    }

    /// Where a card is drawn, in cells.
    struct CardFrame {
        var card: CardView
        var isTop: Bool
        var centerColumn: Double
        var topRow: Int
        var bottomRow: Int
        var halfWidth: Double
        /// Columns a row moves right per row below the centre (shear of the rotation).
        var shearPerRow: Double
        var centerRow: Double
    }

    /// Frames of the cards holding a profile, in state order. The bottom
    /// edge of each card under another is kept at least one row below the
    /// one above, so the stack stays visible although its 7-point steps are
    /// finer than a row.
    func cardFrames() -> [CardFrame] {
        var frames: [CardFrame] = []
        for card in snapshot.cards where card.profile != nil && card.pose.alpha > 0 {
            var frame = frame(of: card, isTop: frames.isEmpty && card.state == .first)
            if let above = frames.last, card.state != .other, !above.card.pose.isDisplaced {
                frame.bottomRow = max(frame.bottomRow, above.bottomRow + 1)
            }
            frames.append(frame)
        }
        return frames
    }

    /// Where `card` is drawn by its pose alone.
    func frame(of card: CardView, isTop: Bool) -> CardFrame {
        let pose = card.pose
        let centerRow = (pose.center.y - Self.topY) / pointsPerRow
        let halfHeight = DeckGeometry.cardHeight * pose.scale / pointsPerRow / 2
        return CardFrame(
            card: card, isTop: isTop,
            centerColumn: screenLeftColumn + pose.center.x / pointsPerColumn,
            topRow: Int((centerRow - halfHeight).rounded()),
            bottomRow: Int((centerRow + halfHeight).rounded()),
            halfWidth: DeckGeometry.cardWidth * pose.scale / pointsPerColumn / 2,
            // A point `r` rows below the centre moves by −r·(points per row)·sinθ points in x.
            shearPerRow: -pointsPerRow * sin(pose.rotation) / pointsPerColumn,
            centerRow: centerRow)
    }

    /// "Name, 37" for a row between `room`'s borders: a name too long for
    /// it is cut, never the age ("Hannah Goldbe…" hid it on a compact card).
    private func nameAndAge(_ profile: Profile, room: (left: Int, right: Int)) -> String {
        let age = ", \(profile.age)"
        let name = TerminalText.sanitized(profile.name)
        let fits = room.right - room.left - 3 - TerminalText.displayWidth(age)
        guard fits >= 2 else { return name + age }
        return TerminalText.truncated(name, toWidth: fits) + age
    }

    private func columns(of frame: CardFrame, row: Int) -> (left: Int, right: Int) {
        // One width for every row, the one the card has at rest: rounding
        // both edges of a sheared row on their own made the card a column
        // wider on some rows than on others (the right border wobbled).
        let width =
            Int((frame.centerColumn + frame.halfWidth).rounded())
            - Int((frame.centerColumn - frame.halfWidth).rounded())
        let shift = frame.shearPerRow * (Double(row) - frame.centerRow)
        let left = Int((frame.centerColumn - frame.halfWidth + shift).rounded())
        return (left, left + width - 1)
    }

    private func draw(_ frame: CardFrame, on canvas: inout TextCanvas) {
        let edgeTone: ReplStyle.Tone = frame.isTop ? .bold : (frame.card.pose.alpha < 0.5 ? .dim : .plain)
        for row in frame.topRow...max(frame.topRow, frame.bottomRow) {
            let (left, right) = columns(of: frame, row: row)
            let inner = max(0, right - left - 1)
            let (open, fill, close): (String, String, String) =
                row == frame.topRow ? ("╭", "─", "╮") : row == frame.bottomRow ? ("╰", "─", "╯") : ("│", " ", "│")
            canvas.put(open + String(repeating: fill, count: inner) + close, row: row, column: left, tone: edgeTone)
        }
        guard let profile = frame.card.profile else { return }
        let middle = Int(frame.centerRow.rounded())
        let city = profile.city.map { TerminalText.sanitized($0) } ?? ""
        let interests = profile.interests.map { TerminalText.sanitized($0) }.joined(separator: " · ")
        let text: [(Int, String, ReplStyle.Tone)] = [
            (middle - 1, nameAndAge(profile, room: columns(of: frame, row: middle - 1)), .bold),
            (middle, city, .plain),
            (middle + 1, compact ? "" : interests, .dim),
            (
                frame.bottomRow - 1, TerminalText.sanitized(profile.id) + (compact ? "" : " · slot \(frame.card.slot)"),
                .dim
            ),
        ]
        for (row, line, tone) in text where row > frame.topRow && row < frame.bottomRow {
            let (left, right) = columns(of: frame, row: row)
            let room = right - left - 3
            let shown = TerminalText.truncated(line, toWidth: room)
            let start = left + 2 + (room - TerminalText.displayWidth(shown)) / 2
            canvas.put(shown, row: row, column: start, tone: frame.isTop ? tone : .dim)
        }
        if frame.isTop { drawStamps(frame, on: &canvas) }
    }

    /// NOPE at the top left, LIKE at the top right, as in TanTan.
    private func drawStamps(_ frame: CardFrame, on canvas: inout TextCanvas) {
        let row = frame.topRow + 1
        guard row < frame.bottomRow else { return }
        let (left, right) = columns(of: frame, row: row)
        let indicators = snapshot.indicators
        if let nope = Self.stamp("NOPE", alpha: indicators.hate) {
            canvas.put(nope.text, row: row, column: left + 2, tone: nope.strong ? .hate : .dim)
        }
        if let like = Self.stamp("LIKE", alpha: indicators.like) {
            let column = right - 1 - TerminalText.displayWidth(like.text)
            canvas.put(like.text, row: row, column: column, tone: like.strong ? .like : .dim)
        }
    }

    /// A stamp fading in by thirds of its alpha: faint lowercase, then
    /// capitals, then framed. Nothing at alpha 0.
    static func stamp(_ word: String, alpha: Double) -> (text: String, strong: Bool)? {
        switch alpha {
        case ..<0.005: nil
        case ..<(1.0 / 3): (word.lowercased(), false)
        case ..<(2.0 / 3): (word, true)
        default: ("[" + word + "]", true)
        }
    }

    /// A bottom button, one more pair of brackets for each 5/3 of border it lost.
    static func button(_ label: String, border: Double) -> (text: String, swollen: Bool) {
        let lost = (5 - min(max(border, 0), 5)) / 5
        let rings = 1 + Int((lost * 3).rounded())
        return (
            String(repeating: "(", count: rings) + " " + label + " " + String(repeating: ")", count: rings), rings > 1
        )
    }

    private func drawButtons(on canvas: inout TextCanvas) {
        let row = cardRows
        let center = Int(screenLeftColumn + DeckGeometry.restCenter.x / pointsPerColumn)
        let nope = Self.button(compact ? "✕" : "✕ NOPE", border: snapshot.indicators.hateBorder)
        let like = Self.button(compact ? "♥" : "♥ LIKE", border: snapshot.indicators.likeBorder)
        let star = "( ★ )"
        canvas.put(star, row: row, column: center - 2, tone: .superlike)
        canvas.put(
            nope.text, row: row, column: center - 5 - TerminalText.displayWidth(nope.text),
            tone: nope.swollen ? .hate : .plain)
        canvas.put(like.text, row: row, column: center + 5, tone: like.swollen ? .like : .plain)
    }

    private func drawEmpty(on canvas: inout TextCanvas) {
        // The outline of a resting top card.
        let frame = frame(
            of: CardView(slot: 0, state: .first, profile: nil, pose: CardPose(center: DeckGeometry.restCenter)),
            isTop: false)
        for row in frame.topRow...frame.bottomRow {
            let (left, right) = columns(of: frame, row: row)
            let edge = row == frame.topRow || row == frame.bottomRow
            let line =
                edge
                ? String(repeating: "┄", count: right - left + 1)
                : "┆" + String(repeating: " ", count: right - left - 1) + "┆"
            canvas.put(line, row: row, column: left, tone: .dim)
        }
        let messages = ["no more cards", compact ? "try reload" : "reload asks for more"]
        for (offset, message) in messages.enumerated() {
            let column = Int(frame.centerColumn) - TerminalText.displayWidth(message) / 2
            canvas.put(
                message, row: Int(frame.centerRow.rounded()) - 1 + offset, column: column,
                tone: offset == 0 ? .bold : .dim)
        }
    }
}

extension CardPose {
    /// Whether the card was moved sideways or turned (dragged or flying):
    /// resting cards all sit on the screen's centre line, unrotated.
    var isDisplaced: Bool {
        rotation != 0 || center.x != DeckGeometry.restCenter.x
    }
}
