import SwipeCLI
import SwipeCore

/// An in-memory `ReplLedger` with a fixed clock: decision n is stamped
/// 2026-11-20T23:55:0n.000Z. `likedBy` are the profiles that already like the viewer.
final class FakeLedger: ReplLedger {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk I/O error (fake)" }
    }

    var entries: [LedgerEntry] = []
    var likedBy: Set<String>
    var failNextRecord = false

    init(likedBy: Set<String> = []) {
        self.likedBy = likedBy
    }

    func record(_ decision: DeckDecision) throws -> LedgerReceipt {
        if failNextRecord {
            failNextRecord = false
            throw Failure()
        }
        let stamp = "2026-11-20T23:55:0\(entries.count + 1).000Z"
        entries.insert(LedgerEntry(profileID: decision.profile.id, name: decision.profile.name,
            decision: decision.decision, via: decision.via, decidedAt: stamp, undoneAt: nil), at: 0)
        return LedgerReceipt(decidedAt: stamp, isMatch: decision.decision.isPositive && likedBy.contains(decision.profile.id))
    }

    func undo(_ decision: DeckDecision) throws {
        guard let index = entries.firstIndex(where: { $0.profileID == decision.profile.id && $0.undoneAt == nil }) else { return }
        entries[index].undoneAt = "2026-11-20T23:59:00.000Z"
    }

    func history(about profile: String?) throws -> [LedgerEntry] {
        entries.filter { profile == nil || $0.profileID == profile }
    }

    func matches() throws -> [LedgerMatch] {
        entries.filter { $0.undoneAt == nil && $0.decision.isPositive && likedBy.contains($0.profileID) }
            .map { LedgerMatch(profileID: $0.profileID, name: $0.name, matchedAt: $0.decidedAt) }
    }
}

enum Fixture {
    static let profiles = [
        Profile(id: "m-1", name: "Mia", age: 27, gender: "f", city: "Lisbon",
                bio: "Climber.\nBaker of sourdough.", photos: ["https://example.com/m1.jpg"], interests: ["climbing", "bread"]),
        Profile(id: "w-2", name: "Wen", age: 31, city: "Taipei", interests: ["go"]),
        Profile(id: "k-3", name: "Kai", age: 24),
        Profile(id: "l-4", name: "Lou", age: 45),
        Profile(id: "z-5", name: "Zoé", age: 38, city: "Lyon"),
    ]

    static func session(_ format: ReplFormat = .json, profiles: [Profile] = profiles, ledger: FakeLedger = FakeLedger())
        throws -> ReplSession<InMemoryFeed, FakeLedger>
    {
        ReplSession(controller: try DeckController(feed: InMemoryFeed(profiles)), ledger: ledger, format: format)
    }
}

extension ReplSession {
    /// Runs `line` and returns what it printed.
    mutating func answer(_ line: String) -> String {
        var out = ""
        run(line, into: &out)
        return out
    }
}
