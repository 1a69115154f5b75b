/// How much of the deck a text answer draws, and how wide.
public struct ReplLayout: Hashable, Sendable {
    /// Columns of the terminal (the picture scales to them; 80 when unknown,
    /// `DeckPicture.width`).
    public var width: Int
    public var view: ReplView
    /// Whether answers draw the deck (a person at a terminal, or `--picture`);
    /// otherwise only the outcome lines (a script's output reads like a log).
    public var pictures: Bool

    public init(width: Int = 80, view: ReplView = .compact, pictures: Bool = true) {
        self.width = width
        self.view = view
        self.pictures = pictures
    }
}
