/// `why` with an empty deck.
struct NothingToExplain: Error, CustomStringConvertible {
    var description: String { "why: the deck is empty, there is no card to explain" }
}
