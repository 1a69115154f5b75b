import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// `signInStates` reads in one statement per 100 viewers what
/// `isProfile`, `signInGeneration` and `suspension(of:at:)` say one by one;
/// the three per-viewer reads are the oracle, over random viewers (some
/// revoked once or twice, some banned for a while, for good, or banned long
/// ago and free again, some erased or never there, some asked twice), on
/// both backends, in lists long enough to cross the statement's chunks.
@Suite struct SignInStatesTests {
    let stores = TestStores("swipe-signin-states")

    @Test(arguments: TestBackend.all) func theBatchSaysWhatTheOneByOneReadsSay(_ backend: TestBackend) throws {
        var random = SplitMix64(seed: 40)
        let ids = (0..<140).map { String(format: "u%03d", $0) }
        let store = try stores.store(backend, profiles: ids)
        let now = Date()
        for id in ids {
            switch random.next() % 8 {
            case 0: try store.revokeSignIns(viewer: id)
            case 1:
                try store.revokeSignIns(viewer: id)
                try store.revokeSignIns(viewer: id)
            case 2: _ = try store.ban(id, reason: "spam \(id)", days: 3, by: nil, at: now)
            case 3: _ = try store.ban(id, reason: "for good", days: nil, by: nil, at: now)
            case 4:
                _ = try store.ban(id, reason: "long ago", days: 1, by: nil, at: now.addingTimeInterval(-30 * 86_400))
            case 5: _ = try store.erase(viewer: id, at: now)
            default: break
            }
        }
        let asked = ids + ids.prefix(20) + ["nobody", "u999", "x'; DROP TABLE profiles; --"]
        let states = try store.signInStates(of: asked, at: now)
        var seen = (profiles: 0, suspended: 0, revoked: 0)
        for id in Set(asked) {
            let exists = try store.isProfile(id)
            #expect((states[id] != nil) == exists, "\(id)")
            guard exists, let state = states[id] else { continue }
            #expect(state.generation == (try store.signInGeneration(viewer: id)), "\(id)")
            #expect(state.suspension == (try store.suspension(of: id, at: now)), "\(id)")
            seen.profiles += 1
            if state.suspension != nil { seen.suspended += 1 }
            if state.generation > 0 { seen.revoked += 1 }
        }
        // The draw reached every kind, so the comparison above could fail.
        #expect(seen.profiles > 100 && seen.suspended > 20 && seen.revoked > 20, "\(seen)")
        #expect(try store.signInStates(of: [], at: now).isEmpty)
    }
}
