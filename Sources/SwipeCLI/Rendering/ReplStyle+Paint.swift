import SwipeSession

extension ReplStyle {
    /// `text` wrapped in the escape sequence for `tone` (unchanged without colour).
    public func paint(_ text: String, _ tone: Tone) -> String {
        guard color, tone != .plain, !text.isEmpty else { return text }
        return "\u{1B}[" + Self.code(tone) + "m" + text + "\u{1B}[0m"
    }

    static func code(_ tone: Tone) -> String {
        switch tone {
        case .plain: "0"
        case .dim: "2"
        case .bold: "1"
        case .like: "1;32"
        case .hate: "1;31"
        case .superlike: "1;34"
        case .accent: "36"
        case .error: "31"
        }
    }
}
