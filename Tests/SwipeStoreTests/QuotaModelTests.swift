import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The daily quota (README "Discovery") against a brute-force count over
/// random ledgers: a like or superlike is refused exactly when the viewer's
/// standing decisions of that kind made less than 24 hours before number the
/// limit or more, and then frees when the limit-th newest of them is 24 hours
/// old. The ledgers crowd the window's edge: decisions exactly 24 hours old
/// (outside), 1 ms younger (inside), ties, undone ones, other kinds, another
/// viewer's, and some dated after now.
@Suite struct QuotaModelTests {
    typealias Random = DiscoveryModelTests.Random

    static let now = Date(timeIntervalSince1970: 1_795_000_000.25)
    static let day = 86_400_000

    struct Entry {
        var viewer: Int, kind: Decision, ms: Int, undone: Bool
    }

    /// The oracle: `nil` when allowed, else the millisecond the quota frees.
    static func expected(_ ledger: [Entry], viewer: Int, kind: Decision, limit: Int, nowMs: Int) -> Int?? {
        let inWindow = ledger.filter { $0.viewer == viewer && $0.kind == kind && !$0.undone && $0.ms > nowMs - day }
            .map(\.ms).sorted(by: >)
        guard inWindow.count >= limit else { return .none }
        return .some(limit == 0 ? nil : inWindow[limit - 1] + day)
    }

    /// Loads seed's ledger through the store's own calls, for a viewer and
    /// a bystander of this seed's own (`s12-v`, `s12-w`), quotas off while
    /// loading; then records one more like or superlike against a limit.
    static func check(seed: UInt64, store: any SwipeDatabase) throws {
        var random = Random(state: seed)
        let (viewer, other) = ("s\(seed)-v", "s\(seed)-w")
        for id in [viewer, other] { try store.upsert(Profile(id: id, name: "P", age: 30)) }
        _ = try store.setRule("likes-per-day", "off")
        _ = try store.setRule("superlikes-per-day", "off")
        let nowMs = Int((now.timeIntervalSince1970 * 1000).rounded())
        // Offsets that sit on and around the edge of the window, and inside it.
        let edges = [-day, -day + 1, -day - 1, 0, 1, -1, -day / 2, -2 * day, 5000]
        var ledger: [Entry] = []
        let count = random.int(0...40)
        for n in 0..<count {
            let entry = Entry(
                viewer: random.chance(80) ? 1 : 2,
                kind: random.pick([.like, .like, .superlike, .hate]),
                ms: nowMs + (random.chance(50) ? random.pick(edges) : random.int(-2 * day...day / 10)),
                undone: random.chance(15))
            ledger.append(entry)
            let date = Date(timeIntervalSince1970: Double(entry.ms) / 1000)
            let who = entry.viewer == 1 ? viewer : other
            _ = try store.record(viewer: who, profile: "p\(3 + n)", decision: entry.kind, via: .drag, at: date)
            if entry.undone { _ = try store.undo(viewer: who, profile: "p\(3 + n)", at: date) }
        }
        let kind: Decision = random.pick([.like, .superlike])
        let limit = random.int(0...6)
        _ = try store.setRule(kind == .like ? "likes-per-day" : "superlikes-per-day", String(limit))
        let oracle = expected(ledger, viewer: 1, kind: kind, limit: limit, nowMs: nowMs)
        let context =
            "seed \(seed): \(kind) limit \(limit), ledger \(ledger.map { ($0.viewer, $0.kind.rawValue, $0.ms - nowMs, $0.undone) })"
        do {
            _ = try store.record(viewer: viewer, profile: "target", decision: kind, via: .drag, at: now)
            #expect(oracle == .none, "allowed, but over quota: \(context)")
        } catch let StoreError.quotaExceeded(decision, gotLimit, freesAt) {
            #expect(decision == kind && gotLimit == limit, "\(context)")
            switch oracle {
            case .none: Issue.record("refused \(freesAt), but within quota: \(context)")
            case .some(nil): #expect(freesAt == Timestamp.string(from: now), "\(context)")
            case .some(let ms?):
                #expect(freesAt == Timestamp.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)), "\(context)")
            }
        }
    }

    @Test(arguments: TestBackend.all) func theQuotaMatchesABruteForceCount(_ backend: TestBackend) throws {
        let stores = TestStores()
        let store = try stores.store(backend, profiles: ["target"])
        for n in 3..<43 { try store.upsert(Profile(id: "p\(n)", name: "P", age: 30)) }
        for seed in 0..<400 as Range<UInt64> {
            try Self.check(seed: seed &* 0x9E37_79B9, store: store)
        }
        withExtendedLifetime(stores) {}
    }
}
