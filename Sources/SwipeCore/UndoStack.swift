/// The deck's undoable decisions: a persistent stack, so that copies of a
/// deck share what they have in common.
///
/// `DeckController.handle` keeps a copy of the deck to put back when a write
/// fails, and the deck then records the event's decision; `swipe serve`
/// first applies each event to a copy too (`Deck.wouldAskTheStore`). Held
/// in an array, that decision made the array copy every earlier one (copy
/// on write, with its profiles retained and released): a cost that grew with each decision
/// of a session, in every REPL and `swipe serve` socket: 2,000 decisions in
/// one REPL on PostgreSQL spent about a quarter of their samples (perf)
/// copying and freeing the history, and 8,000 in one REPL on SQLite took
/// 4.18 s, 2.56 s with this stack. Here a decision adds one node in front of
/// the ones before, which every copy shares, and taking one back moves to
/// the node below.
struct UndoStack<Element: Sendable>: Sendable {
    private var top: Node?
    /// How many elements it holds.
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { top == nil }

    /// The newest element.
    var last: Element? { top?.element }

    mutating func append(_ element: Element) {
        top = Node(element, below: top)
        count += 1
    }

    /// Takes the newest element off.
    mutating func popLast() -> Element? {
        guard let node = top else { return nil }
        top = node.below
        count -= 1
        return node.element
    }

    /// Every element, oldest first.
    var elements: [Element] {
        var newestFirst: [Element] = []
        newestFirst.reserveCapacity(count)
        var node = top
        while let current = node {
            newestFirst.append(current.element)
            node = current.below
        }
        return newestFirst.reversed()
    }

    /// One element and the stack below it, never changed once built. A
    /// chain of ten million nodes freed at once did not overflow the stack
    /// (measured at -Onone): no deinit of our own is needed.
    private final class Node: Sendable {
        let element: Element
        let below: Node?

        init(_ element: Element, below: Node?) {
            self.element = element
            self.below = below
        }
    }
}
