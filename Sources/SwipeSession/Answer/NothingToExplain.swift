/// `why` with an empty deck.
package struct NothingToExplain: Error, CustomStringConvertible {
    package var description: String { "why: the deck is empty, there is no card to explain" }
}
