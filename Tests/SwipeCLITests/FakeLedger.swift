import SwipeCLI
import SwipeCore
import SwipeSession
import SwipeStore

/// An in-memory `ViewerLedger` for viewer `v` with a fixed clock: decision n
/// is stamped 2026-11-20T23:55:0n.000Z. `likedBy` are the profiles that
/// already like the viewer. It has no discovery: those commands fail.
final class FakeLedger: ViewerLedger {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk I/O error (fake)" }
    }

    struct NoDiscovery: Error, CustomStringConvertible {
        var description: String { "discovery commands need a swipe database" }
    }

    let viewer = "v"
    var entries: [HistoryEntry] = []
    var likedBy: Set<String>
    var failNextRecord = false

    init(likedBy: Set<String> = []) {
        self.likedBy = likedBy
    }

    func record(_ decision: DeckDecision) throws -> RecordedDecision {
        if failNextRecord {
            failNextRecord = false
            throw Failure()
        }
        let stamp = "2026-11-20T23:55:0\(entries.count + 1).000Z"
        entries.insert(
            HistoryEntry(
                profile: decision.profile.id, name: decision.profile.name,
                decision: decision.decision, via: decision.via, decidedAt: stamp, undoneAt: nil), at: 0)
        let isMatch = decision.decision.isPositive && likedBy.contains(decision.profile.id)
        return RecordedDecision(
            viewer: viewer, profile: decision.profile.id, decision: decision.decision, via: decision.via,
            decidedAt: stamp,
            match: isMatch
                ? Match(
                    profile: decision.profile.id, name: decision.profile.name,
                    matchedAt: stamp) : nil, missedMatch: false)
    }

    func undo(_ decision: DeckDecision) throws {
        guard let index = entries.firstIndex(where: { $0.profile == decision.profile.id && $0.undoneAt == nil }) else {
            return
        }
        entries[index].undoneAt = "2026-11-20T23:59:00.000Z"
    }

    func history(about profile: String?) throws -> [HistoryEntry] {
        entries.filter { profile == nil || $0.profile == profile }
    }

    func matches() throws -> [Match] {
        entries.filter { $0.undoneAt == nil && $0.decision.isPositive && likedBy.contains($0.profile) }
            .map { Match(profile: $0.profile, name: $0.name, matchedAt: $0.decidedAt) }
    }

    func viewerProfile() throws -> Profile { throw NoDiscovery() }
    func setPreferences(_ change: PreferencesChange) throws -> Profile { throw NoDiscovery() }
    func editProfile(_ edit: ProfileEdit) throws -> Profile { throw NoDiscovery() }
    func erase() throws -> Erasure { throw NoDiscovery() }
    func exportPersonalData() throws -> PersonalExport { throw NoDiscovery() }
    func changePhotos(_ change: PhotoChange) throws -> Profile { throw NoDiscovery() }
    func editPreferences(_ change: PreferencesChange) throws -> Profile { throw NoDiscovery() }
    func eligible(among ids: [String]) throws -> Set<String> { throw NoDiscovery() }
    func block(_ id: String) throws -> BlockOutcome { throw NoDiscovery() }
    func unblock(_ id: String) throws { throw NoDiscovery() }
    func unmatch(_ id: String) throws { throw NoDiscovery() }
    func report(_ id: String, reason: String) throws -> BlockOutcome { throw NoDiscovery() }
    func likes() throws -> [Liker] { throw NoDiscovery() }
    func reasons(about id: String) throws -> [String] { throw NoDiscovery() }
    /// Earlier sessions: none (a session's own decisions are the deck's).
    func latestStandingDecision() throws -> DeckDecision? { nil }
    func unknownGenders(_ seeking: [String]) throws -> String? { throw NoDiscovery() }
    func send(to profile: String, text: String, clientID: String) throws -> SentMessage { throw NoDiscovery() }
    func read(with profile: String, last: Int?) throws -> [Message] { throw NoDiscovery() }
    func inbox() throws -> [ConversationSummary] { throw NoDiscovery() }
    func name(of id: String) throws -> String? { throw NoDiscovery() }
}

enum Fixture {
    static let profiles = [
        Profile(
            id: "m-1", name: "Mia", age: 27, gender: "f", city: "Lisbon",
            bio: "Climber.\nBaker of sourdough.", photos: ["https://example.com/m1.jpg"],
            interests: ["climbing", "bread"]),
        Profile(id: "w-2", name: "Wen", age: 31, city: "Taipei", interests: ["go"]),
        Profile(id: "k-3", name: "Kai", age: 24),
        Profile(id: "l-4", name: "Lou", age: 45),
        Profile(id: "z-5", name: "Zoé", age: 38, city: "Lyon"),
    ]

    static func session(_ format: ReplFormat = .json, profiles: [Profile] = profiles, ledger: FakeLedger = FakeLedger())
        throws -> ReplSession
    {
        try ReplSession(feed: InMemoryFeed(profiles), ledger: ledger, format: format)
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

extension HistoryEntry {
    /// The profile decided, by the name these tests knew it by.
    var profileID: String { profile }
}
