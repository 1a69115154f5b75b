import SwipeCore
import SwipeStore

extension PostgresStore {
    public func feed(viewer: String) throws -> any ProfileFeed {
        try session { try SimplePostgresFeed(store: self, viewer: viewer) }
    }

    public func eligible(viewer: String, among candidates: [String]) throws -> Set<String> {
        try session {
            let me = try requireKey(viewer)
            var result: Set<String> = []
            try SimplePostgresFeed.forEachEligible(self, viewer: me, only: candidates) { result.insert($0.id); return true }
            return result
        }
    }
}

/// A correct but unhurried feed: one query in the feed's order (superlikers,
/// then likers, each oldest first, then everyone by key) over the SQLite
/// feed's two-way test, the exact distance checked here. It reads every
/// candidate each fetch; `PostgresFeed` (Discovery/) replaces it.
final class SimplePostgresFeed: ProfileFeed {
    private let store: PostgresStore
    private let viewerKey: Int

    init(store: PostgresStore, viewer: String) throws {
        guard let key = try store.profileKey(id: viewer) else { throw ViewerError.notAProfile(viewer) }
        self.store = store
        viewerKey = key
    }

    func nextProfiles(limit: Int, excluding: Set<String>) throws -> [Profile] {
        guard limit > 0 else { return [] }
        var profiles: [Profile] = []
        try store.session {
            try Self.forEachEligible(store, viewer: viewerKey, only: nil) { profile in
                if !excluding.contains(profile.id) { profiles.append(profile) }
                return profiles.count < limit
            }
        }
        return profiles
    }

    /// Calls `body` with each profile the viewer may be shown, in the feed's
    /// order, until it returns false; with `only`, just those ids.
    static func forEachEligible(
        _ store: PostgresStore, viewer key: Int, only ids: [String]?, _ body: (Profile) throws -> Bool
    ) throws {
        guard let me = try store.connection.statement("SELECT \(PostgresStore.profileColumns) FROM profiles WHERE key = $1")
            .first([.int(key)], { try PostgresStore.profile(from: $0) })
        else { throw StoreError.unknownProfile("#\(key)") }
        let preferences = me.preferences
        if preferences.maxKm != nil && me.location == nil { return }
        let box = preferences.maxKm.flatMap { km in me.location.map { Discovery.box(around: $0, km: km) } }
        let lons = box?.lons ?? [-180...180]
        let gender = me.gender.map(Discovery.genderKey).flatMap { $0.isEmpty ? nil : $0 }
        let arguments: [PostgresValue] = [
            .int(key), .int(me.age), .int(preferences.ageMin), .int(preferences.ageMax),
            preferences.seeking.isEmpty ? .null : .text(JSONText.array(preferences.seeking)), .optionalText(gender),
            .int(me.location == nil ? 0 : 1), .int(box == nil ? 0 : 1),
            .real(box?.lats.lowerBound ?? -90), .real(box?.lats.upperBound ?? 90),
            .real(lons[0].lowerBound), .real(lons[0].upperBound),
            .real(lons.last!.lowerBound), .real(lons.last!.upperBound),
            ids.map { .text(JSONText.array($0.filter { !$0.utf8.contains(0) })) } ?? .null,
        ]
        do {
            try store.connection.streamRows(sql, arguments) { row in
                let candidate = PostgresStore.profile(from: row)
                guard accepts(me, candidate) else { return }
                if try !body(candidate) { throw Stop() }
            }
        } catch is Stop {}
    }

    /// Where either side limits the distance, both have a place within every limit.
    private static func accepts(_ me: Profile, _ candidate: Profile) -> Bool {
        let mine = me.preferences.maxKm, theirs = candidate.preferences.maxKm
        guard mine != nil || theirs != nil else { return true }
        guard let here = me.location, let there = candidate.location else { return false }
        let distance = Discovery.distanceKm(here, there)
        return distance <= (mine ?? .infinity) && distance <= (theirs ?? .infinity)
    }

    private struct Stop: Error {}

    /// SQLite's `DiscoverySQL.eligible` in PostgreSQL's words, and the order.
    private static let sql = """
        SELECT \(PostgresStore.prefixedProfileColumns)
        FROM profiles AS p
        LEFT JOIN decisions AS l
          ON l.viewer = p.key AND l.profile = $1::bigint AND l.undone_at IS NULL AND l.decision <> 'hate'
        WHERE p.key <> $1::bigint
          AND ($15::json IS NULL OR p.id IN (SELECT json_array_elements_text($15::json)))
          AND p.age BETWEEN $3::int AND $4::int
          AND $2::int BETWEEN p.age_min AND p.age_max
          AND ($5::json IS NULL OR lower(btrim(p.gender, E' \\t\\n\\r') COLLATE "C")
                                   IN (SELECT json_array_elements_text($5::json)))
          AND (p.seeking IS NULL OR position(';' || $6::text || ';' IN ';' || p.seeking || ';') > 0)
          AND (p.max_km IS NULL OR ($7::int = 1 AND p.lat IS NOT NULL))
          AND ($8::int = 0 OR (p.lat BETWEEN $9::float8 AND $10::float8
                               AND (p.lon BETWEEN $11::float8 AND $12::float8 OR p.lon BETWEEN $13::float8 AND $14::float8)))
          AND NOT EXISTS (SELECT 1 FROM decisions AS d
                          WHERE d.viewer = $1::bigint AND d.profile = p.key AND d.undone_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = $1::bigint AND b.blocked = p.key)
          AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.blocker = p.key AND b.blocked = $1::bigint)
        ORDER BY CASE l.decision WHEN 'superlike' THEN 0 WHEN 'like' THEN 1 ELSE 2 END, l.decided_at, l.key, p.key
        """
}
