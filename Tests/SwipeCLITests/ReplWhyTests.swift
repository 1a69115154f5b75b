import Foundation
import SwipeCLI
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Testing

/// `why` and `prefs seeking` in a REPL session over a real store (README
/// "Ranking"): the top card's reasons in JSON and in text; a gender nobody
/// has is named with the genders present.
@Suite struct ReplWhyTests {
    let temporary = TemporaryFolder("swipe-why")

    func session(_ format: ReplFormat) throws -> ReplSession {
        let store = try SQLiteStore(path: temporary.path + "/why.sqlite")
        if try store.profile(id: "v") == nil {
            try store.upsert(
                Profile(
                    id: "v", name: "V", age: 30, gender: "female", interests: ["jazz"],
                    location: Location(lat: 52.52, lon: 13.405)))
            try store.upsert(
                Profile(
                    id: "fan", name: "Fan", age: 31, gender: "male", interests: ["jazz"],
                    // 4.0 km north, 5 km by the cells (worked out in RankingReasonsTests).
                    location: Location(lat: 52.556, lon: 13.405)))
            try store.upsert(Profile(id: "other", name: "O", age: 31, gender: "male"))
            _ = try store.record(viewer: "fan", profile: "v", decision: .like, via: .button)
        }
        return try .over(store, viewer: "v", format: format)
    }

    @Test func whyGivesTheTopCardsReasons() throws {
        var json = try session(.json)
        let answer = json.answer("why")
        #expect(
            answer.contains(
                #""why":{"profile":"fan","reasons":["likes you"]}"#
            ),
            "\(answer)")
        var text = try session(.text(ReplStyle(color: false)))
        // Only what the ranking uses: the like. Not the distance, the shared
        // interest, new here or active today (signals the ablation removed).
        let why = text.answer("why")
        #expect(why.split(separator: "\n").contains("fan: likes you"), "\(why)")
        #expect(text.answer("why me").contains("why takes no arguments"))
    }

    @Test func prefsSeekingAGenderNobodyHasSaysSo() throws {
        var json = try session(.json)
        let answer = json.answer("prefs seeking f")
        #expect(answer.contains(#"nobody has gender \"f\"; the genders here: female 1, male 2"#), "\(answer)")
        #expect(!json.answer("prefs seeking male").contains("nobody has gender"))
    }

    /// Preferences that withdraw the whole deck: the notice first, then the
    /// deck's empty state once (it was printed twice, before the notice).
    @Test func prefsThatEmptyTheDeckSayItOnceAfterTheNotice() throws {
        var text = try session(.text(ReplStyle(color: false)))
        let lines = text.answer("prefs seeking f").split(separator: "\n").map(String.init)
        let saved = lines.firstIndex { $0.hasPrefix("preferences saved; fan, other no longer qualify") }
        let empty = lines.indices.filter { lines[$0].hasPrefix("∅ no more cards") }
        #expect(saved != nil && empty.count == 1, "\(lines)")
        if let saved, let last = empty.first { #expect(saved < last, "\(lines)") }
    }
}
