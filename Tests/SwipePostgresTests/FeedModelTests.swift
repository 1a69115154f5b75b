import Foundation
import SwipeCore
@_spi(Benchmarks) import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// The PostgreSQL feed against the independent brute-force model of README
/// "Discovery" (`DiscoveryModel`, the same model SQLite's feed is held to):
/// random profiles (some without a location or a gender, some exactly at a
/// distance or age limit), preferences, decisions, likes, undos and blocks,
/// loaded with plain INSERTs; the feed must deal exactly the model's sequence,
/// all at once and card by card, walking by cell and by key.
@Suite(.needsPostgres) struct FeedModelTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let schema = try! String(contentsOf: root.appendingPathComponent("schema.postgres.sql"), encoding: .utf8)
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// A connection to the test's database with swipe's schema.
    func connect() throws -> PGConnection {
        let connection = try database.connect()
        try connection.execute(Self.schema)
        return connection
    }

    static func insert(_ profile: Profile, _ connection: PGConnection) throws {
        try connection.run(
            """
            INSERT INTO profiles (id, name, age, gender, lat, lon, seeking, age_min, age_max, max_km, interests)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json)
            """, .text(profile.id), .text(profile.name), .int(profile.age), .optionalText(profile.gender),
            profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null,
            profile.preferences.seeking.isEmpty ? .null : .text(profile.preferences.seeking.joined(separator: ";")),
            .int(profile.preferences.ageMin), .int(profile.preferences.ageMax),
            profile.preferences.maxKm.map { .real($0) } ?? .null, .text(JSONText.array(profile.interests)))
    }

    static func decide(
        _ connection: PGConnection, _ viewer: String, _ profile: String, _ decision: Decision,
        at: Date, undone: Bool = false
    ) throws {
        let time = Timestamp.string(from: at)
        try connection.run(
            """
            INSERT INTO decisions (viewer, profile, decision, via, decided_at, undone_at)
            VALUES ((SELECT key FROM profiles WHERE id = $1), (SELECT key FROM profiles WHERE id = $2), $3, 'import', $4, $5)
            """, .text(viewer), .text(profile), .text(decision.rawValue), .text(time), undone ? .text(time) : .null)
    }

    /// The scenario in an emptied database (keys from 1 again, in the model's order).
    static func load(_ s: DiscoveryModel.Scenario, into connection: PGConnection) throws {
        try connection.transaction {
            try connection.execute(
                """
                TRUNCATE profiles, decisions, matches, feed_cursors, liker_cursors, blocks, reports, rank_stats, rank_fit,
                    messages, photos, moderators, suspensions, warnings, flags, report_resolutions RESTART IDENTITY;
                UPDATE rank_fit_mean SET mean = NULL, through = 0
                """)
            for person in s.people { try insert(person.profile, connection) }
            for choice in s.decisions {
                try decide(
                    connection, s.people[choice.viewer].id, s.people[choice.profile].id, choice.decision,
                    at: start.addingTimeInterval(Double(choice.time)), undone: choice.undone)
            }
            for (a, b) in s.blocks {
                try connection.run(
                    """
                    INSERT INTO blocks (blocker, blocked, blocked_at)
                    VALUES ((SELECT key FROM profiles WHERE id = $1), (SELECT key FROM profiles WHERE id = $2), $3)
                    """, .text(s.people[a].id), .text(s.people[b].id), .text(Timestamp.string(from: start)))
            }
        }
    }

    /// The moment of every fetch and of the decisions made while dealing.
    static let now = start.addingTimeInterval(100_000)

    /// With `fitted` (the store at `fitted`'s URI), the ranking's model is
    /// refitted after the load and the model ranks by the fit it returned.
    static func check(seed: Int, _ connection: PGConnection, elsewhere: Bool = false, fitted: String? = nil) throws {
        var s = DiscoveryModel.scenario(seed: seed)
        try load(s, into: connection)
        var state = DiscoveryModel.RankState(s, start: start)
        let model = fitted == nil ? Ranking.Model.standard : DiscoveryModel.fittedModel
        if let uri = fitted {
            let fit = try PostgresStore(uri: uri, create: false).refitRanking(at: start)
            if fit.decisions > 0 {
                let keys = try s.people.map {
                    try #require(try connection.scalarInt("SELECT key FROM profiles WHERE id = $1", .text($0.id)))
                }
                state.fit = (fit.mean, keys.map { fit.appeal[$0] }, keys.map { fit.generosity[$0] })
            }
        }
        let everyone = s.people.map(\.id)
        for v in s.people.indices {
            let viewer = s.people[v].id
            let expected = DiscoveryModel.expectedRankedFeed(s, viewer: v, state: state, now: now)
            #expect(
                try PostgresDiscovery.eligible(connection: connection, viewer: viewer, among: everyone)
                    == Set(DiscoveryModel.expectedFeed(s, viewer: v)), "seed \(seed) viewer u\(v): eligible(among:)")
            // The cells of a box, or (cellLimit 0) the walk by key for every box.
            let cellLimit = v % 2 == 0 ? nil : 0 as Int?
            // All at once, looking only…
            let look = try PostgresFeed(
                connection: connection, viewer: viewer,
                options: .init(cellLimit: cellLimit, records: false, clock: { now }, model: model))
            #expect(
                try look.nextProfiles(limit: 1000, excluding: []).map(\.id) == expected, "seed \(seed) viewer u\(v)")
            // …and card by card, as a deck of four that keeps its cards deals them.
            let feed = try PostgresFeed(
                connection: connection, viewer: viewer,
                options: .init(cellLimit: cellLimit, clock: { now }, model: model))
            let (dealt, modelDealt) = try DiscoveryModel.cardByCard(
                &s, viewer: v, state: &state, now: now, start: start,
                fetch: { try feed.nextProfiles(limit: 1, excluding: $0).first?.id },
                hate: { try decide(connection, viewer, $0, .hate, at: now) },
                elsewhere: elsewhere ? { try decide(connection, $0, $1, .like, at: now) } : nil)
            #expect(dealt == modelDealt, "seed \(seed) viewer u\(v), card by card")
            #expect(Set(dealt) == Set(expected), "seed \(seed) viewer u\(v): every eligible one, once")
        }
    }

    /// Fixed seeds (the same scenarios every run) and fresh ones (named in a failure).
    @Test func feedDealsExactlyTheModelsSequence() throws {
        let connection = try connect()
        let fresh = Int.random(in: 0...1_000_000_000)
        for seed in Array(0..<40) + Array(fresh..<(fresh + 20)) {
            try Self.check(seed: seed, connection)
        }
    }

    /// The same with the ranking's model fitted after the load (README
    /// "Ranking"): the feed ranks by each side's fitted appeal and generosity.
    @Test func fittedFeedDealsExactlyTheModelsSequence() throws {
        let connection = try connect()
        let fresh = Int.random(in: 0...1_000_000_000)
        for seed in Array(0..<20) + Array(fresh..<(fresh + 10)) {
            try Self.check(seed: seed, connection, fitted: database.uri)
        }
    }

    /// The batch rule (README "Ranking") while others like between cards: a
    /// like of a card further down does not move it up until the ranking is
    /// used up; a new liker comes next, and after it a fresh ranking.
    @Test func batchHoldsWhileOthersDecide() throws {
        let connection = try connect()
        let fresh = Int.random(in: 0...1_000_000_000)
        for seed in Array(0..<20) + Array(fresh..<(fresh + 10)) {
            try Self.check(seed: seed, connection, elsewhere: true)
        }
    }

    /// A profile exactly at the limit (the coarse distance, README
    /// "Discovery") is in; one two rows of cells further north (2.5 km) is
    /// out; with nowhere to be, a limit on either side leaves a profile out.
    @Test func distanceLimitIsInclusive() throws {
        let connection = try connect()
        let here = Location(lat: 52.52, lon: 13.405), there = Location(lat: 52.60, lon: 13.50)
        let exact = DiscoveryModel.coarseDistance(here, there)
        try Self.insert(
            Profile(id: "v", name: "V", age: 30, location: here, preferences: Preferences(maxKm: exact)), connection)
        try Self.insert(Profile(id: "at", name: "At", age: 30, location: there), connection)
        try Self.insert(
            Profile(id: "beyond", name: "B", age: 30, location: Location(lat: 52.63, lon: 13.50)), connection)
        try Self.insert(Profile(id: "nowhere", name: "N", age: 30), connection)
        #expect(
            try PostgresFeed(connection: connection, viewer: "v").nextProfiles(limit: 9, excluding: []).map(\.id) == [
                "at"
            ])
        #expect(
            try PostgresDiscovery.eligible(
                connection: connection, viewer: "v", among: ["at", "beyond", "nowhere", "v"])
                == ["at"])
    }

    /// Rows the query's widened distance keeps but the coarse test in Swift
    /// turns down (a limit half a km short of their coarse distance, well
    /// within the query's 3 km of slack) come before the one eligible
    /// profile, far more than the first batch: the fetch reads on until it
    /// finds it, and the cursor passes them.
    @Test func exactDistanceRejectionsAreReadPast() throws {
        let connection = try connect()
        let here = Location(lat: 52.52, lon: 13.405), there = Location(lat: 52.60, lon: 13.50)
        let short = DiscoveryModel.coarseDistance(here, there) - 0.5
        try Self.insert(
            Profile(id: "v", name: "V", age: 30, location: here, preferences: Preferences(maxKm: short)), connection)
        for n in 0..<40 { try Self.insert(Profile(id: "r\(n)", name: "R", age: 30, location: there), connection) }
        try Self.insert(Profile(id: "near", name: "N", age: 30, location: here), connection)
        let feed = try PostgresFeed(connection: connection, viewer: "v")
        #expect(try feed.nextProfiles(limit: 1, excluding: []).map(\.id) == ["near"])
        // Every key before `near` (the viewer's and the 40 turned down) is passed.
        #expect(try connection.scalarInt("SELECT after_key FROM feed_cursors") == 41)
        #expect(
            try PostgresFeed(connection: connection, viewer: "v", options: .init(cellLimit: 0)).nextProfiles(
                limit: 5, excluding: []
            )
            .map(\.id) == ["near"])
    }

    /// Likers not eligible (too old for the viewer) before an eligible one:
    /// the eligible one comes first of all, and the likers' cursor passes
    /// the others, so the next fetch starts after them.
    @Test func likersCursorPassesTheIneligible() throws {
        let connection = try connect()
        try Self.insert(
            Profile(id: "v", name: "V", age: 30, preferences: Preferences(ageMin: 25, ageMax: 35)), connection)
        try Self.insert(Profile(id: "a", name: "A", age: 30), connection)
        for n in 0..<10 { try Self.insert(Profile(id: "old\(n)", name: "O", age: 60), connection) }
        try Self.insert(Profile(id: "fan", name: "F", age: 31), connection)
        for n in 0..<10 {
            try Self.decide(connection, "old\(n)", "v", .like, at: Self.start.addingTimeInterval(Double(n)))
        }
        try Self.decide(connection, "fan", "v", .like, at: Self.start.addingTimeInterval(100))
        let feed = try PostgresFeed(connection: connection, viewer: "v")
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["fan", "a"])
        #expect(
            try connection.scalarText("SELECT after_at FROM liker_cursors WHERE decision = 'like'")
                == Timestamp.string(from: Self.start.addingTimeInterval(9)))
        // Nothing to show the viewer among the likers moves the cursor to the last like.
        try Self.decide(connection, "v", "fan", .hate, at: Self.start.addingTimeInterval(200))
        #expect(try feed.nextProfiles(limit: 4, excluding: []).map(\.id) == ["a"])
        #expect(
            try connection.scalarText("SELECT after_at FROM liker_cursors WHERE decision = 'like'")
                == Timestamp.string(from: Self.start.addingTimeInterval(100)))
    }

    /// The viewer must be a profile, with the store's errors for each question.
    @Test func unknownViewersAreRefused() throws {
        let connection = try connect()
        try Self.insert(Profile(id: "a", name: "A", age: 30), connection)
        #expect(throws: ViewerError.notAProfile("ghost")) { try PostgresFeed(connection: connection, viewer: "ghost") }
        #expect(throws: StoreError.unknownProfile("ghost")) {
            try PostgresDiscovery.eligible(connection: connection, viewer: "ghost", among: ["a"])
        }
        // Ids no profile can have (PostgreSQL text holds no NUL) are simply not eligible.
        #expect(try PostgresDiscovery.eligible(connection: connection, viewer: "a", among: ["a\u{0}", "nobody"]) == [])
        #expect(throws: ViewerError.notAProfile("a\u{0}")) {
            try PostgresFeed(connection: connection, viewer: "a\u{0}")
        }
    }
}
