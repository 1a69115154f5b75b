/// What a viewer decided about a profile. Raw values are the stored and
/// printed spellings (`decision` column, JSON, CSV).
public enum Decision: String, CaseIterable, Hashable, Sendable, Codable {
    case like
    case hate
    case superlike

    /// Whether this decision counts towards a match.
    public var isPositive: Bool { self != .hate }
}

/// How a decision was made. Raw values are the stored spellings.
public enum Via: String, CaseIterable, Hashable, Sendable, Codable {
    /// The card was dragged past a threshold (or flicked) and released.
    case drag
    /// A bottom button (like / hate / superlike) was tapped on the deck.
    case button
    /// A button was tapped in the detail view (which closes first).
    case detail
    /// Loaded by `swipe import --decisions` from a file that did not say how.
    case `import`
}
