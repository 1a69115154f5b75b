/// How text is decorated: ANSI colour on a terminal, nothing otherwise.
/// The executable decides (TTY and `NO_COLOR`); renderers only take the value.
public struct ReplStyle: Hashable, Sendable {
    public var color: Bool

    public init(color: Bool) {
        self.color = color
    }

    public static let plain = ReplStyle(color: false)

    /// What a piece of text means, which decides its colour.
    public enum Tone: Hashable, Sendable {
        case plain, dim, bold, like, hate, superlike, accent, error
    }

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
