import Foundation
import SwipeCore
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// Every `SwipeDatabase` method once against the cluster, with answers
/// worked by hand from the contract (README "Discovery", "The ledger").
/// The whole store suite runs on both backends elsewhere; this holds the
/// PostgreSQL store on its own.
@Suite(.needsPostgres) struct PostgresStoreSmokeTests {
    let database: PostgresTestDatabase
    let store: PostgresStore
    init() throws {
        database = try PostgresTestDatabase()
        store = try PostgresStore(uri: database.uri, create: true)
    }

    /// 2026-11-20T10:MM:00.000Z
    static func at(_ minute: Int) -> Date { Date(timeIntervalSince1970: 1_795_600_800 + Double(minute) * 60) }
    static func stamp(_ minute: Int) -> String { Timestamp.string(from: at(minute)) }

    static let berlin = Location(lat: 52.52, lon: 13.40)
    static let vera = Profile(
        id: "v", name: "Vera", age: 30, gender: "f", city: "Berlin", bio: "line one\nline two", photos: ["v.jpg"],
        interests: ["jazz", "tea"], location: berlin,
        preferences: Preferences(seeking: ["m"], ageMin: 25, ageMax: 35, maxKm: 50))
    static let others = [
        // ~4 km from Vera, sought, seeks women: eligible.
        Profile(
            id: "m1", name: "Max", age: 32, gender: "m", city: "berlin", location: Location(lat: 52.50, lon: 13.45),
            preferences: Preferences(seeking: ["f"])),
        // 40: outside Vera's 25–35.
        Profile(id: "m2", name: "Moe", age: 40, gender: "M", location: berlin),
        // A woman: Vera seeks men.
        Profile(id: "f1", name: "Fay", age: 29, gender: "f", location: berlin),
        // Munich, ~500 km: beyond Vera's 50 km.
        Profile(id: "m3", name: "Mo", age: 28, gender: "m", location: Location(lat: 48.14, lon: 11.58)),
        // No place while Vera limits the distance.
        Profile(id: "m4", name: "Mika", age: 33, gender: "m"),
        // Eligible, and will superlike Vera: dealt first.
        Profile(id: "m5", name: "Mats", age: 31, gender: " m ", city: "BERLIN", location: berlin),
    ]

    @Test func everyMethodOnce() throws {
        // Profiles
        #expect(try store.upsert(Self.vera) == .inserted)
        #expect(try store.upsert(Self.vera) == .unchanged)
        var renamed = Self.vera
        renamed.name = "Vera B."
        #expect(try store.upsert(renamed) == .updated)
        #expect(try store.upsert(Self.vera) == .updated)
        for profile in Self.others { #expect(try store.upsert(profile) == .inserted) }
        #expect(try store.profile(id: "v") == Self.vera)
        #expect(try store.profile(id: "nobody") == nil)
        #expect(try store.isProfile("m5") && !store.isProfile("M5"))
        #expect(try store.profileIDs(startingWith: "m", limit: 10) == ["m1", "m2", "m3", "m4", "m5"])
        #expect(try store.profileIDs(startingWith: "m", limit: 2) == ["m1", "m2"])
        var all: [String] = []
        try store.forEachProfile(.all) { all.append($0.id) }
        #expect(all == ["v", "m1", "m2", "f1", "m3", "m4", "m5"])
        var inBerlin: [String] = []
        try store.forEachProfile(ProfileQuery(city: "BERLIN")) { inBerlin.append($0.id) }
        #expect(inBerlin == ["v", "m1", "m5"])
        var paged: [String] = []
        try store.forEachProfile(ProfileQuery(ages: 30...33, limit: 2, offset: 1)) { paged.append($0.id) }
        #expect(paged == ["m1", "m4"])  // v, m1, m4, m5 are 30–33; skip one, take two
        var rows: [String] = []
        try store.forEachProfileRow(ProfileQuery(limit: 1)) { row in
            let photos = row.bytes(6).map { String(decoding: $0, as: UTF8.self) }
            rows.append(
                "\(row.int(2)) \(photos ?? "NULL") \(row.double(8)) \(row.isNull(13) ? "no max" : "\(row.double(13))")")
            #expect(row.bytes(3).map { String(decoding: $0, as: UTF8.self) } == "f")
        }
        #expect(rows == [#"30 ["v.jpg"] 52.52 50.0"#])

        // The ledger and discovery
        let t = Self.at
        #expect(try store.record(viewer: "m5", profile: "v", decision: .superlike, via: .drag, at: t(0)).match == nil)
        let feed = try store.feed(viewer: "v")
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["m5", "m1"])
        #expect(try feed.nextProfiles(limit: 4, excluding: ["m5"]).map(\.id) == ["m1"])
        #expect(
            try store.eligible(viewer: "v", among: ["m1", "m2", "f1", "m3", "m4", "m5", "nobody"]) == ["m1", "m5"])
        let liked = try store.record(viewer: "v", profile: "m5", decision: .like, via: .button, at: t(1))
        #expect(liked.match == Match(profile: "m5", name: "Mats", matchedAt: Self.stamp(1)))
        #expect(try store.matches(viewer: "v") == [Match(profile: "m5", name: "Mats", matchedAt: Self.stamp(1))])
        #expect(try store.matches(viewer: "m5").map(\.profile) == ["v"])
        #expect(
            try store.record(viewer: "v", profile: "m2", decision: .hate, via: .drag, at: t(2)).missedMatch == false)
        _ = try store.record(viewer: "m1", profile: "v", decision: .like, via: .detail, at: t(3))
        #expect(try store.record(viewer: "v", profile: "m1", decision: .hate, via: .button, at: t(4)).missedMatch)
        #expect(
            try store.missedMatches(viewer: "v") == [
                MissedMatch(
                    profile: "m1", name: "Max", theirDecision: .like, likedAt: Self.stamp(3), passedAt: Self.stamp(4))
            ])
        #expect(
            try store.history(HistoryQuery(viewer: "v")) == [
                HistoryEntry(
                    profile: "m1", name: "Max", decision: .hate, via: .button, decidedAt: Self.stamp(4), undoneAt: nil),
                HistoryEntry(
                    profile: "m2", name: "Moe", decision: .hate, via: .drag, decidedAt: Self.stamp(2), undoneAt: nil),
                HistoryEntry(
                    profile: "m5", name: "Mats", decision: .like, via: .button, decidedAt: Self.stamp(1), undoneAt: nil),
            ])
        #expect(
            try store.history(HistoryQuery(viewer: "v", decision: .hate, since: Self.stamp(3))).map(\.profile) == ["m1"]
        )
        #expect(try store.history(HistoryQuery(viewer: "v", limit: 1, profile: "m5")).map(\.profile) == ["m5"])
        #expect(try store.decidedProfileIDs(viewer: "v") == ["m1", "m2", "m5"])
        #expect(try store.likes(viewer: "v") == [])
        _ = try store.record(viewer: "f1", profile: "v", decision: .like, via: .import, at: t(5))
        #expect(
            try store.likes(viewer: "v") == [Liker(profile: "f1", name: "Fay", decision: .like, likedAt: Self.stamp(5))]
        )

        // Counts: 7 profiles; decisions m5→v, v→m5, v→m2, m1→v, v→m1, f1→v.
        #expect(
            try store.stats()
                == StoreStats(
                    profiles: 7, viewers: 4, decisions: 6, undone: 0, likes: 3, hates: 2, superlikes: 1, matches: 1,
                    missedMatches: 1))
        #expect(
            try store.stats(viewer: "v")
                == ViewerStats(
                    viewer: "v", decided: 3, likesGiven: 1, superlikesGiven: 0, hatesGiven: 2, likesReceived: 2,
                    superlikesReceived: 1, matches: 1, undone: 0))

        // Refusals, each the SQLite store's
        #expect(throws: StoreError.selfDecision("v")) {
            try store.record(viewer: "v", profile: "v", decision: .like, via: .drag)
        }
        #expect(throws: StoreError.unknownProfile("zz")) {
            try store.record(viewer: "v", profile: "zz", decision: .like, via: .drag)
        }
        #expect(
            throws: StoreError.alreadyDecided(viewer: "m1", profile: "v", decision: .like, decidedAt: Self.stamp(3))
        ) {
            try store.record(viewer: "m1", profile: "v", decision: .hate, via: .drag)
        }

        // Undo ends the match it made
        let undone = try store.undo(viewer: "v", profile: "m5", at: t(6))
        #expect(
            undone
                == UndoneDecision(
                    viewer: "v", profile: "m5", decision: .like, via: .button, decidedAt: Self.stamp(1),
                    undoneAt: Self.stamp(6), unmatched: true))
        #expect(try store.matches(viewer: "v") == [])
        #expect(throws: StoreError.notDecided(viewer: "v", profile: "m5")) {
            try store.undo(viewer: "v", profile: "m5")
        }
        #expect(try store.stats(viewer: "v").undone == 1)

        // Blocks, unmatch, reports
        #expect(
            try store.block(viewer: "v", profile: "m2", at: t(7)) == BlockOutcome(endedMatch: false, newBlock: true))
        #expect(throws: StoreError.alreadyBlocked(viewer: "v", profile: "m2")) {
            try store.block(viewer: "v", profile: "m2")
        }
        #expect(try store.blocked(viewer: "v") == ["m2"])
        #expect(throws: StoreError.blocked(viewer: "m2", profile: "v")) {
            try store.record(viewer: "m2", profile: "v", decision: .like, via: .drag)
        }
        try store.unblock(viewer: "v", profile: "m2")
        #expect(throws: StoreError.notBlocked(viewer: "v", profile: "m2")) {
            try store.unblock(viewer: "v", profile: "m2")
        }
        #expect(throws: StoreError.selfAction("v", action: "block")) { try store.block(viewer: "v", profile: "v") }
        #expect(
            try store.record(viewer: "v", profile: "m5", decision: .like, via: .drag, at: t(8)).match?.matchedAt
                == Self.stamp(8))
        try store.unmatch(viewer: "m5", profile: "v", at: t(9))
        #expect(try store.matches(viewer: "v") == [])
        #expect(throws: StoreError.notMatched(viewer: "v", profile: "m5")) {
            try store.unmatch(viewer: "v", profile: "m5")
        }
        #expect(
            try store.report(viewer: "v", profile: "f1", reason: "  spam\n", at: t(10))
                == BlockOutcome(endedMatch: false, newBlock: true))
        #expect(
            try store.reports() == [Report(reporter: "v", reported: "f1", reason: "spam", reportedAt: Self.stamp(10))])
        #expect(
            throws: StoreError.invalidValue(name: "a report's reason", value: "", expected: "some words saying why")
        ) {
            try store.report(viewer: "v", profile: "m1", reason: " \n ")
        }
        #expect(try store.likes(viewer: "v") == [], "f1 is blocked now")

        // Preferences
        let changed = try store.setPreferences(
            viewer: "v", PreferencesChange(seeking: ["M", " f "], ages: 20...45, maxKm: .some(nil)))
        #expect(changed.preferences == Preferences(seeking: ["m", "f"], ageMin: 20, ageMax: 45, maxKm: nil))
        #expect(try store.profile(id: "v")?.preferences == changed.preferences)
        // Now m3 (Munich) and m4 (no place) are in reach; m1, m2, m5 decided, f1 blocked.
        #expect(try store.eligible(viewer: "v", among: ["m1", "m2", "m3", "m4", "m5", "f1"]) == ["m3", "m4"])

        // Settings and rules
        #expect(try store.lastViewer() == nil)
        try store.setLastViewer("v")
        #expect(try store.lastViewer() == "v")
        #expect(try store.resolveViewer(nil) == "v")
        #expect(try store.rules() == Rules())
        #expect(try store.setRule("likes-per-day", "1") == Rules(likesPerDay: 1))
        // v's like of m5 at minute 8 is the one like in the day before minute 30.
        #expect(
            throws: StoreError.quotaExceeded(decision: .like, limit: 1, freesAt: Timestamp.string(from: t(8 + 24 * 60)))
        ) {
            try store.record(viewer: "v", profile: "m3", decision: .like, via: .drag, at: t(30))
        }
        #expect(try store.record(viewer: "v", profile: "m3", decision: .hate, via: .drag, at: t(31)).decision == .hate)
        #expect(try store.setRule("rewind", "off").rewind == .off)
        #expect(throws: StoreError.rewindRefused(rule: .off, decision: .hate)) {
            try store.undo(viewer: "v", profile: "m3")
        }
        #expect(throws: StoreError.self) { try store.setRule("likes-per-year", "3") }
        #expect(try store.setRule("likes-per-day", "off") == Rules(rewind: .off))
        #expect(try store.accessSecret(create: false) == nil)
        let secret = try #require(try store.accessSecret(create: true))
        #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit))
        #expect(try store.accessSecret(create: true) == secret)
        #expect(try PostgresStore(uri: database.uri, create: false).accessSecret(create: false) == secret)
    }
}
