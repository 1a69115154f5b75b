import SwipeCore
import SwipeStore

/// One viewer's side of discovery on PostgreSQL, read for one fetch: the
/// arguments `PostgresDiscoverySQL` binds ($1…$17), and the exact distance
/// test applied to what its queries return.
struct PostgresDiscoveryViewer {
    let key: Int
    let profile: Profile
    /// The box holding every place within the viewer's max_km, when they have one and a location.
    let box: Discovery.Box?

    init(key: Int, profile: Profile) {
        self.key = key
        self.profile = profile
        box = Discovery.box(of: profile)
    }

    /// The viewer with external id `id` as stored now, or nil when there is no such profile.
    static func read(_ connection: PGConnection, id: String) throws -> PostgresDiscoveryViewer? {
        // A NUL cannot be in PostgreSQL text, so no profile has it in its id.
        guard !id.utf8.contains(0) else { return nil }
        return try connection.statement(PostgresDiscoverySQL.viewer).first([.text(id)]) { row in
            PostgresDiscoveryViewer(key: try PostgresProfileRow.key(row), profile: try PostgresProfileRow.profile(row))
        }
    }

    /// Nobody can be eligible: the viewer limits the distance but has no location.
    var seesNobody: Bool { Discovery.seesNobody(profile) }

    /// $1…$17 of `PostgresDiscoverySQL`, then `extra` from $18.
    func arguments(_ extra: PostgresValue...) -> [PostgresValue] {
        let preferences = profile.preferences
        let seeking: PostgresValue = preferences.seeking.isEmpty ? .null : .text(JSONText.array(preferences.seeking))
        var values: [PostgresValue] = [
            .int(key), .int(profile.age), .int(preferences.ageMin), .int(preferences.ageMax), seeking,
            .optionalText(Discovery.genderKey(of: profile)), .boolean(profile.location != nil), .boolean(box != nil),
        ]
        values += Discovery.boxBounds(box).map { .real($0) }
        values += [profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null,
                   preferences.maxKm.map { .real($0) } ?? .null]
        return values + extra
    }

    /// The distance half of eligibility, exact (`Discovery.withinDistance`).
    func accepts(_ candidate: Profile) -> Bool { Discovery.withinDistance(viewer: profile, candidate: candidate) }
}
