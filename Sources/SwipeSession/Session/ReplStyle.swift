/// How text is decorated: ANSI colour on a terminal, nothing otherwise.
/// The executable decides (TTY and `NO_COLOR`); the text renderers in
/// SwipeCLI paint with it (`paint`), the session only carries the choice.
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
}
