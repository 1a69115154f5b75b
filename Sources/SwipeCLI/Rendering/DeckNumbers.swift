import SwipeCore
import SwipeSession

/// The numbers under the picture: the gesture, the indicators and every
/// slot's pose, so a reader can check the picture against the README's "The deck model".
public struct DeckNumbers: Sendable {
    public var snapshot: DeckSnapshot
    public var style: ReplStyle

    public init(_ snapshot: DeckSnapshot, style: ReplStyle) {
        self.snapshot = snapshot
        self.style = style
    }

    /// One line: physics, gesture, progress, like and nope, and the top
    /// card's rotation (`view compact`).
    public var summary: String { summaryParts.joined(separator: " · ") }

    /// `summary` broken between its parts into lines of at most `width` columns.
    public func summaryLines(width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for part in summaryParts {
            if line.isEmpty {
                line = part
            } else if TerminalText.displayWidth(line) + 3 + TerminalText.displayWidth(part) <= width {
                line += " · " + part
            } else {
                lines.append(line)
                line = part
            }
        }
        return lines + [line]
    }

    private var summaryParts: [String] {
        let indicators = snapshot.indicators
        var parts = motionParts
        parts.append(style.paint("like " + Self.fixed(indicators.like, 2), indicators.like > 0 ? .like : .plain))
        parts.append(style.paint("nope " + Self.fixed(indicators.hate, 2), indicators.hate > 0 ? .hate : .plain))
        if let top = snapshot.cards.first, top.profile != nil {
            parts.append("rotation " + Self.fixed(top.pose.rotationDegrees, 1) + "°")
        }
        return parts
    }

    /// Physics, gesture and progress: "tantan · drag (+60, -10) pt · progress 0.45".
    var motion: String { motionParts.joined(separator: " · ") }

    private var motionParts: [String] {
        var gesture = "at rest"
        if let drag = snapshot.dragging {
            gesture = "drag (\(Self.signed(drag.x)), \(Self.signed(drag.y))) pt"
        }
        return [snapshot.physics.rawValue, gesture, "progress " + Self.fixed(snapshot.indicators.progress, 2)]
    }

    /// The `view full` numbers: the motion, the indicators, every slot's pose.
    public var lines: [String] {
        let indicators = snapshot.indicators
        let stamps = [
            style.paint("like " + Self.fixed(indicators.like, 2), indicators.like > 0 ? .like : .plain),
            style.paint("nope " + Self.fixed(indicators.hate, 2), indicators.hate > 0 ? .hate : .plain),
            "button borders: like " + Self.fixed(indicators.likeBorder, 1)
                + ", nope " + Self.fixed(indicators.hateBorder, 1),
        ]
        var lines = [
            motion, stamps.joined(separator: " · "),
            style.paint("state  slot  profile         x        y   scale   rotation  alpha", .dim),
        ]
        for card in snapshot.cards {
            let profile = card.profile.map { TerminalText.sanitized($0.id) } ?? "—"
            let pose = card.pose
            lines.append(
                TerminalText.padded(card.state.rawValue, to: 7)
                    + TerminalText.padded(String(card.slot), to: 4, alignRight: true) + "  "
                    + TerminalText.padded(profile, to: 12)
                    + TerminalText.padded(Self.fixed(pose.center.x, 1), to: 8, alignRight: true) + " "
                    + TerminalText.padded(Self.fixed(pose.center.y, 2), to: 8, alignRight: true)
                    + TerminalText.padded(Self.fixed(pose.scale, 3), to: 8, alignRight: true)
                    + TerminalText.padded(Self.fixed(pose.rotationDegrees, 1) + "°", to: 10, alignRight: true)
                    + TerminalText.padded(Self.fixed(pose.alpha, 2), to: 7, alignRight: true))
        }
        return lines
    }

    /// `value` with exactly `places` decimals, never "-0.0".
    static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let units = Int64((abs(value) * scale).rounded())
        let negative = value < 0 && units != 0
        var digits = String(units)
        if places > 0 {
            digits = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        }
        return (negative ? "-" : "") + digits
    }

    /// A translation with its sign and at most one decimal: +60, -10, +12.5.
    static func signed(_ value: Double) -> String {
        let text = JSONValue.format((value * 10).rounded() / 10)
        return value > 0 ? "+" + text : text
    }
}
