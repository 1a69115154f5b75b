import SwipeCore
import SwipeStore

/// One viewer's side of discovery (`Discovery.Viewer`) on PostgreSQL, read
/// for one fetch, with the arguments `PostgresDiscoverySQL` binds ($1…$17).
typealias PostgresDiscoveryViewer = Discovery.Viewer

extension Discovery.Viewer {
    /// The viewer with external id `id` as stored now, or nil when there is no such profile.
    static func read(_ connection: PGConnection, id: String) throws -> PostgresDiscoveryViewer? {
        // A NUL cannot be in PostgreSQL text, so no profile has it in its id.
        guard !id.utf8.contains(0) else { return nil }
        return try connection.statement(PostgresDiscoverySQL.viewer).first([.text(id)]) { row in
            PostgresDiscoveryViewer(key: try PostgresProfileRow.key(row), profile: try PostgresProfileRow.profile(row))
        }
    }

    /// $1…$17 of `PostgresDiscoverySQL`, then `extra` from $18.
    func arguments(_ extra: PostgresValue...) -> [PostgresValue] {
        let preferences = profile.preferences
        let seeking: PostgresValue = preferences.seeking.isEmpty ? .null : .text(JSONText.array(preferences.seeking))
        var values: [PostgresValue] = [
            .int(key), .int(profile.age), .int(preferences.ageMin), .int(preferences.ageMax), seeking,
            .optionalText(Discovery.genderKey(of: profile)), .boolean(profile.location != nil), .boolean(box != nil),
        ]
        values += Discovery.boxBounds(box).map { .real($0) }
        // The centre of the viewer's cell, from which `coarseKm` measures.
        let centre = profile.location.map(Discovery.cell(of:))
        values += [
            centre.map { .real($0.lat) } ?? .null, centre.map { .real($0.lon) } ?? .null,
            preferences.maxKm.map { .real($0) } ?? .null,
        ]
        return values + extra
    }
}
