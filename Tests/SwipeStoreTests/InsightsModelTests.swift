import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// `insights` (Documentation/Insights.md) against a brute-force model: random
/// ledgers (an imported history, then live likes, undos, unmatches,
/// messages and an erase) are played into the store, and every key of every
/// period is computed again here, in plain Swift, from what was played, then compared
/// with the store's rows: by day, week and month, for the market, one person
/// and one city, on both backends.
@Suite struct InsightsModelTests {
    let stores = TestStores("swipe-insights")

    static let people = (0..<9).map { "p\($0)" }
    static func city(_ id: String) -> String? {
        let index = Int(id.dropFirst())!
        return index % 3 == 0 ? nil : (index % 3 == 1 ? "Oslo" : "Bergen")
    }

    /// Milliseconds since 1970 of 2026-02-20T00:00:00Z: the imported history
    /// starts here, and the live one runs into March (a month and several ISO weeks).
    static let start: Int64 = 1_771_545_600_000
    static let hourMS: Int64 = 3_600_000

    struct PlayedDecision {
        var viewer: String, profile: String, decision: Decision, at: Int64, undoneAt: Int64?
    }
    struct PlayedMessage {
        var low: String, high: String, sender: String, recipient: String, at: Int64
    }
    struct MatchRow {
        var matchedAt: Int64
        var ended: Bool
    }

    /// What was played into the store, and the model's own ledger rules.
    struct Ledger {
        var decisions: [PlayedDecision] = []
        var matches: [String: MatchRow] = [:]
        var messages: [PlayedMessage] = []

        static func pair(_ a: String, _ b: String) -> String { a < b ? a + "|" + b : b + "|" + a }

        func standing(_ viewer: String, _ profile: String) -> Int? {
            decisions.lastIndex { $0.viewer == viewer && $0.profile == profile && $0.undoneAt == nil }
        }

        /// A decision stored: a positive one meeting the other's standing
        /// positive one makes the match at the later of the two, once per pair ever.
        mutating func decided(_ viewer: String, _ profile: String, _ decision: Decision, at: Int64) {
            decisions.append(
                PlayedDecision(viewer: viewer, profile: profile, decision: decision, at: at, undoneAt: nil))
            guard decision != .hate, let theirs = standing(profile, viewer), decisions[theirs].decision != .hate,
                matches[Self.pair(viewer, profile)] == nil
            else { return }
            matches[Self.pair(viewer, profile)] = MatchRow(matchedAt: max(at, decisions[theirs].at), ended: false)
        }

        /// An erase: the person and every row naming them go (their
        /// decisions and those about them, their matches and messages).
        mutating func erased(_ person: String) {
            decisions.removeAll { $0.viewer == person || $0.profile == person }
            matches = matches.filter { !$0.key.split(separator: "|").contains(Substring(person)) }
            messages.removeAll { $0.sender == person || $0.recipient == person }
        }

        /// An undo: the decision stays, stamped; its standing match ends
        /// when the pair talked, else goes.
        mutating func undone(_ viewer: String, _ profile: String, at: Int64) {
            guard let index = standing(viewer, profile) else { return }
            decisions[index].undoneAt = at
            let key = Self.pair(viewer, profile)
            guard let match = matches[key], !match.ended else { return }
            if messages.contains(where: { Self.pair($0.low, $0.high) == key }) {
                matches[key]?.ended = true
            } else {
                matches[key] = nil
            }
        }
    }

    static func stamp(_ ms: Int64) -> String {
        Timestamp.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// Plays a random ledger into `store` and returns what was stored.
    func play(_ store: any SwipeDatabase, seed: UInt64) throws -> Ledger {
        var random = SplitMix64(seed: seed)
        var ledger = Ledger()
        for id in Self.people {
            try store.upsert(Profile(id: id, name: "Name " + id, age: 30, city: Self.city(id)))
        }
        // An imported history: each decision at its own (past) time.
        var csv = "viewer,profile,decision,decided_at\n"
        var imported: [(String, String, Decision, Int64)] = []
        for viewer in Self.people {
            for profile in Self.people where profile != viewer && Int.random(in: 0..<3, using: &random) == 0 {
                let decision = [Decision.like, .superlike, .hate, .like][Int.random(in: 0..<4, using: &random)]
                let at = Self.start + Int64.random(in: 0..<(5 * 24 * Self.hourMS), using: &random)
                imported.append((viewer, profile, decision, at))
                csv += "\(viewer),\(profile),\(decision.rawValue),\(Self.stamp(at))\n"
            }
        }
        _ = try importing(store).importDecisions(path: stores.folder.file("decisions-\(seed).csv", csv))
        for (viewer, profile, decision, at) in imported.sorted(by: { $0.3 < $1.3 }) {
            ledger.decided(viewer, profile, decision, at: at)
        }
        // Live: one act every few hours from 2026-02-25 on.
        var now = Self.start + 5 * 24 * Self.hourMS
        for step in 0..<160 {
            now += Int64.random(in: 1...(5 * Self.hourMS), using: &random)
            let date = Date(timeIntervalSince1970: Double(now) / 1000)
            if step == 120 {
                // Someone erases themselves (never p1 or p4, whom the test asks about by name).
                let person = ["p2", "p5", "p7"].randomElement(using: &random)!
                _ = try store.erase(viewer: person, at: date)
                ledger.erased(person)
                continue
            }
            let viewer = Self.people.randomElement(using: &random)!
            let profile = Self.people.filter { $0 != viewer }.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                guard ledger.standing(viewer, profile) == nil else { continue }
                let decision = [Decision.like, .like, .superlike, .hate][Int.random(in: 0..<4, using: &random)]
                do {
                    _ = try store.record(viewer: viewer, profile: profile, decision: decision, via: .button, at: date)
                    ledger.decided(viewer, profile, decision, at: now)
                } catch is StoreError {}
            case 5:
                guard ledger.standing(viewer, profile) != nil else { continue }
                do {
                    _ = try store.undo(viewer: viewer, profile: profile, at: date)
                    ledger.undone(viewer, profile, at: now)
                } catch is StoreError {}
            case 6:
                let key = Ledger.pair(viewer, profile)
                guard let match = ledger.matches[key], !match.ended else { continue }
                do {
                    try store.unmatch(viewer: viewer, profile: profile, at: date)
                    ledger.matches[key]?.ended = true
                } catch is StoreError {}
            default:
                let key = Ledger.pair(viewer, profile)
                guard let match = ledger.matches[key], !match.ended else { continue }
                do {
                    _ = try store.send(
                        MessageSend(viewer: viewer, profile: profile, text: "hi", clientID: "m\(step)", at: date))
                    ledger.messages.append(
                        PlayedMessage(
                            low: min(viewer, profile), high: max(viewer, profile), sender: viewer, recipient: profile,
                            at: now))
                } catch is StoreError {}
            }
        }
        return ledger
    }

    // MARK: - The model's calendar (its own arithmetic, not the store's)

    /// The UTC civil date of day number `days` since 1970 (Howard Hinnant's algorithm).
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Day number since 1970 of a UTC civil date (the inverse of `civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The period holding day number `days`.
    static func period(_ days: Int64, _ by: InsightPeriod) -> String {
        let (year, month, day) = civil(days)
        switch by {
        case .day: return "\(year)-\(two(month))-\(two(day))"
        case .month: return "\(year)-\(two(month))"
        case .week:
            // ISO: the week belongs to the year of its Thursday; 1970-01-01 was a Thursday.
            let weekday = ((days % 7) + 7 + 3) % 7  // 0 = Monday
            let thursday = days - weekday + 3
            let thursdayYear = civil(thursday).year
            let januaryFirst = daysFromCivil(year: thursdayYear, month: 1, day: 1)
            return "\(thursdayYear)-W\(two((thursday - januaryFirst) / 7 + 1))"
        }
    }

    // MARK: - The oracle

    static func expected(
        _ ledger: Ledger, fromDay: Int64, throughDay: Int64, by: InsightPeriod, viewer: String?, city: String?
    ) -> [InsightRow] {
        let dayMS: Int64 = 86_400_000
        func inRange(_ ms: Int64) -> Bool { ms >= fromDay * dayMS && ms < (throughDay + 1) * dayMS }
        func periodOf(_ ms: Int64) -> String { period(ms / dayMS, by) }
        func counts(_ person: String) -> Bool {
            (viewer == nil || person == viewer) && (city == nil || Self.city(person) == city)
        }
        func countsPair(_ a: String, _ b: String) -> Bool {
            (viewer == nil || a == viewer || b == viewer)
                && (city == nil || Self.city(a) == city || Self.city(b) == city)
        }
        var names: [String] = []
        for day in fromDay...throughDay where names.last != period(day, by) { names.append(period(day, by)) }
        return names.map { name in
            var row = InsightRow(period: name)
            let here = { (ms: Int64) in inRange(ms) && periodOf(ms) == name }
            var active = Set<String>()
            for decision in ledger.decisions where here(decision.at) && counts(decision.viewer) {
                active.insert(decision.viewer)
                guard decision.undoneAt == nil else { continue }
                switch decision.decision {
                case .like: row.likes += 1
                case .superlike: row.superlikes += 1
                case .hate: row.hates += 1
                }
            }
            for message in ledger.messages where here(message.at) && counts(message.sender) {
                active.insert(message.sender)
            }
            row.active = active.count
            for (key, match) in ledger.matches where here(match.matchedAt) {
                let pair = key.split(separator: "|").map(String.init)
                if countsPair(pair[0], pair[1]) { row.matches += 1 }
            }
            var hours: [Double] = []
            for (key, match) in ledger.matches {
                let pair = key.split(separator: "|").map(String.init)
                let talk = ledger.messages.filter { $0.low == pair[0] && $0.high == pair[1] }
                guard let first = talk.first, here(first.at), countsPair(pair[0], pair[1]) else { continue }
                row.conversations += 1
                if talk.contains(where: { $0.sender == first.recipient }) { row.replied += 1 }
                hours.append(Double(first.at - match.matchedAt) / 3_600_000)
            }
            hours.sort()
            if !hours.isEmpty {
                row.medianHoursToFirstMessage =
                    hours.count % 2 == 1
                    ? hours[hours.count / 2] : (hours[hours.count / 2 - 1] + hours[hours.count / 2]) / 2
            }
            if viewer == nil {
                var seen: [String: Int] = [:]
                for decision in ledger.decisions
                where here(decision.at) && (city == nil || Self.city(decision.profile) == city) {
                    seen[decision.profile, default: 0] += 1
                }
                let x = Array(seen.values)
                if !x.isEmpty {
                    var differences = 0
                    for a in x { for b in x { differences += abs(a - b) } }
                    row.exposureGini = Double(differences) / (2 * Double(x.count) * Double(x.reduce(0, +)))
                }
            }
            return row
        }
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): abs(a - b) < 1e-9
        default: false
        }
    }

    static func same(_ got: InsightRow, _ want: InsightRow) -> Bool {
        got.period == want.period && got.active == want.active && got.likes == want.likes
            && got.superlikes == want.superlikes && got.hates == want.hates && got.matches == want.matches
            && got.conversations == want.conversations && got.replied == want.replied
            && close(got.medianHoursToFirstMessage, want.medianHoursToFirstMessage)
            && close(got.exposureGini, want.exposureGini) && close(got.likeRate, want.likeRate)
            && close(got.matchesPer100Likes, want.matchesPer100Likes)
    }

    @Test(arguments: TestBackend.all) func everyKeyOfEveryPeriodAgreesWithTheModel(_ backend: TestBackend) throws {
        for seed: UInt64 in [1, 2, 3] {
            let store = try stores.store(backend, profiles: [], "insights-\(seed)")
            let ledger = try play(store, seed: seed)
            #expect(!ledger.matches.isEmpty && !ledger.messages.isEmpty, "seed \(seed) plays something to count")
            let firstDay = Self.start / 86_400_000
            // The whole history and a window cut mid-week, with empty days on both sides.
            for (from, through) in [(firstDay - 3, firstDay + 40), (firstDay + 6, firstDay + 17)] {
                for by in InsightPeriod.allCases {
                    for (viewer, city) in [(nil, nil), ("p1", nil), ("p4", nil), (nil, "Oslo"), (nil, "Nowhere")]
                        as [(String?, String?)]
                    {
                        let since = Self.stamp(from * 86_400_000)
                        let until = Self.stamp((through + 1) * 86_400_000 - 1)
                        let got = try store.insights(
                            InsightQuery(since: since, until: until, by: by, viewer: viewer, city: city))
                        let want = Self.expected(
                            ledger, fromDay: from, throughDay: through, by: by, viewer: viewer, city: city)
                        #expect(got.map(\.period) == want.map(\.period), "seed \(seed) \(by) \(since)")
                        for (g, w) in zip(got, want) {
                            #expect(
                                Self.same(g, w),
                                "seed \(seed) by \(by) as \(viewer ?? "-") in \(city ?? "-"): \(g) != \(w)")
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: TestBackend.all) func anUnknownPersonIsRefusedAndAnEmptyRangeHasEveryPeriod(
        _ backend: TestBackend
    ) throws {
        let store = try stores.store(backend, profiles: ["a"])
        #expect(throws: StoreError.self) {
            try store.insights(
                InsightQuery(
                    since: "2026-11-01T00:00:00.000Z", until: "2026-11-30T23:59:59.999Z", by: .week, viewer: "nobody"))
        }
        let rows = try store.insights(
            InsightQuery(since: "2026-12-28T00:00:00.000Z", until: "2027-01-04T23:59:59.999Z", by: .week))
        #expect(rows.map(\.period) == ["2026-W53", "2027-W01"])
        #expect(rows.allSatisfy { $0.likes == 0 && $0.likeRate == nil && $0.exposureGini == nil })
    }
}
