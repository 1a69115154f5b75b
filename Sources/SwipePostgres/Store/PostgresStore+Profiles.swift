import CLibPQ
import SwipeCore
import SwipeStore

extension PostgresStore {
    /// The same columns of the profile aliased `p`.
    static let prefixedProfileColumns = profileColumns.split(separator: ",")
        .map { "p." + $0.trimmingPrefix(" ") }.joined(separator: ", ")

    /// One statement: an insert, or an update of the profile with the same
    /// id only when some column differs (`IS DISTINCT FROM`; json has no
    /// equality, so its text is compared, as SQLite compares the stored text).
    /// `xmax = 0` tells a new row from an updated one; no row is unchanged.
    static let upsertSQL: String = {
        let columns = profileColumns.split(separator: ",").map { String($0.trimmingPrefix(" ")) }
        let updated = columns.filter { $0 != "id" }
        let compared = updated.map { ["photos", "interests"].contains($0) ? "\($0)::text" : $0 }
        return "INSERT INTO profiles (\(profileColumns)) VALUES ("
            + (1...columns.count).map { "$\($0)" }.joined(separator: ", ") + ") ON CONFLICT (id) DO UPDATE SET "
            + updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            + " WHERE (" + compared.map { "profiles.\($0)" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
            + compared.map { "excluded.\($0)" }.joined(separator: ", ") + ") RETURNING (xmax = 0)"
    }()

    @discardableResult
    public func upsert(_ profile: Profile) throws -> UpsertOutcome {
        let arguments = Self.arguments(of: profile)
        return try write {
            let result = try connection.statement(Self.upsertSQL).query(arguments)
            guard let row = result.first else { return .unchanged }
            return try row.bool(0) ? .inserted : .updated
        }
    }

    /// `profile` as the fourteen parameters of `upsertSQL`, as SQLite's
    /// `ProfileRow` writes it (seeking normalised, empty lists as `[]`).
    static func arguments(of profile: Profile) -> [PostgresValue] {
        let preferences = profile.preferences
        let seeking = Discovery.seeking(fromList: preferences.seeking.joined(separator: ";"))
        return [
            .text(profile.id), .text(profile.name), .int(profile.age), .optionalText(profile.gender),
            .optionalText(profile.city), .optionalText(profile.bio), .text(JSONText.array(profile.photos)),
            .text(JSONText.array(profile.interests)), profile.location.map { .real($0.lat) } ?? .null,
            profile.location.map { .real($0.lon) } ?? .null,
            seeking.isEmpty ? .null : .text(seeking.joined(separator: ";")),
            .int(preferences.ageMin), .int(preferences.ageMax), preferences.maxKm.map(PostgresValue.real) ?? .null,
        ]
    }

    public func forEachProfile(_ query: ProfileQuery, _ body: (Profile) throws -> Void) throws {
        try forEachProfileRow(query) { row in try body(Profile(row: row as! PostgresStoredRow)) }
    }

    /// Streams the rows in single-row mode (`PostgresStoredRow`): one row in
    /// memory at a time, however many the query selects. The city compares
    /// ASCII letters without case, as SQLite's NOCASE (`lower` under the C
    /// collation folds ASCII only).
    public func forEachProfileRow(_ query: ProfileQuery, _ body: (any StoredRow) throws -> Void) throws {
        if let city = query.city, city.utf8.contains(0) { return }
        try session {
            let sql = """
                SELECT \(Self.profileColumns) FROM profiles
                WHERE ($1::text IS NULL OR lower(city COLLATE "C") = lower($1::text COLLATE "C"))
                  AND ($2::int IS NULL OR age BETWEEN $2::int AND $3::int)
                ORDER BY key LIMIT $4::bigint OFFSET $5::bigint
                """
            let arguments: [PostgresValue] = [
                .optionalText(query.city), query.ages.map { .int($0.lowerBound) } ?? .null,
                query.ages.map { .int($0.upperBound) } ?? .null, query.limit.map { .int($0) } ?? .null,
                .int(query.offset),
            ]
            try connection.streamRows(sql, arguments) { try body($0) }
        }
    }
}
