import Foundation
import SwipeStore

/// `why` (README "Ranking"): the reasons a card is in the viewer's deck, in
/// words. Its own protocol, so a ledger without a store (a test's fake)
/// needs nothing new: the session refuses `why` then.
public protocol ReasonsLedger {
    /// Why `id` is in the viewer's deck (`SwipeDatabase.reasons`).
    func reasons(about id: String) throws -> [String]
    /// The genders of `seeking` no profile has, in words, with those present (nil: all present).
    func unknownGenders(_ seeking: [String]) throws -> String?
}

extension StoreLedger: ReasonsLedger {
    public func reasons(about id: String) throws -> [String] { try store.reasons(viewer: viewer, about: id) }
    public func unknownGenders(_ seeking: [String]) throws -> String? { try store.unknownGenders(seeking) }
}

/// `why` with an empty deck.
struct NothingToExplain: Error, CustomStringConvertible {
    var description: String { "why: the deck is empty, there is no card to explain" }
}
