import CLibPQ
import SwipeCore
import SwipeStore

extension PostgresStore {
    /// The profile columns in `StoreRecords.profileColumns` order; the JSON
    /// arrays come back as the text stored.
    static let profileColumns =
        "id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km"

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
            profile.location.map { .real($0.lon) } ?? .null, seeking.isEmpty ? .null : .text(seeking.joined(separator: ";")),
            .int(preferences.ageMin), .int(preferences.ageMax), preferences.maxKm.map(PostgresValue.real) ?? .null,
        ]
    }

    public func profile(id: String) throws -> Profile? {
        guard !id.utf8.contains(0) else { return nil }
        return try session {
            try connection.statement("SELECT \(Self.profileColumns) FROM profiles WHERE id = $1")
                .first([.text(id)]) { try Self.profile(from: $0) }
        }
    }

    /// The first ids at or after `$1` in byte order, at most `$2`: read off
    /// the unique index on `id`, which is `COLLATE "C"` (schema.postgres.sql).
    static let idsFromSQL = """
        SELECT id FROM profiles WHERE id COLLATE "C" >= $1 ORDER BY id COLLATE "C" LIMIT $2
        """

    /// Ids in byte order (`COLLATE "C"`, as SQLite's BINARY): a range of
    /// the ids starting at `prefix`, cut where they stop sharing it.
    public func profileIDs(startingWith prefix: String, limit: Int) throws -> [String] {
        guard !prefix.utf8.contains(0), limit > 0 else { return [] }
        return try session {
            var ids: [String] = []
            for row in try connection.statement(Self.idsFromSQL).query([.text(prefix), .int(limit)]) {
                let id = try row.text(0)
                guard id.utf8.starts(with: prefix.utf8) else { break }
                ids.append(id)
            }
            return ids
        }
    }

    public func forEachProfile(_ query: ProfileQuery, _ body: (Profile) throws -> Void) throws {
        try forEachProfileRow(query) { row in try body(Self.profile(from: row as! PostgresStoredRow)) }
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

    /// A profile from columns 0…13 in `profileColumns` order, from `offset`.
    static func profile(from row: PGRow, offset: Int = 0) throws -> Profile {
        Profile(
            id: try row.text(offset), name: try row.text(offset + 1), age: try row.int(offset + 2),
            gender: try row.optionalText(offset + 3), city: try row.optionalText(offset + 4),
            bio: try row.optionalText(offset + 5), photos: strings(fromJSON: try row.text(offset + 6)),
            interests: strings(fromJSON: try row.text(offset + 7)),
            location: try row.isNull(offset + 8)
                ? nil : Location(lat: try row.double(offset + 8), lon: try row.double(offset + 9)),
            preferences: Preferences(
                seeking: try row.optionalText(offset + 10).map { $0.split(separator: ";").map(String.init) } ?? [],
                ageMin: try row.int(offset + 11), ageMax: try row.int(offset + 12),
                maxKm: try row.optionalDouble(offset + 13)))
    }

    /// A profile from a streamed row (text format).
    static func profile(from row: PostgresStoredRow) -> Profile {
        Profile(
            id: row.text(0), name: row.text(1), age: row.int(2), gender: row.optionalText(3),
            city: row.optionalText(4), bio: row.optionalText(5), photos: strings(fromJSON: row.text(6)),
            interests: strings(fromJSON: row.text(7)),
            location: row.isNull(8) ? nil : Location(lat: row.double(8), lon: row.double(9)),
            preferences: Preferences(
                seeking: row.optionalText(10).map { $0.split(separator: ";").map(String.init) } ?? [],
                ageMin: row.int(11), ageMax: row.int(12), maxKm: row.isNull(13) ? nil : row.double(13)))
    }

    static func strings(fromJSON text: String) -> [String] {
        guard text != "[]" else { return [] }
        return JSONText.strings(fromArray: text) ?? []
    }
}
