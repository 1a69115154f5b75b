import SwipeCore

/// Reading profiles (writing them is each backend's own: SQLite binds a row
/// in place, PostgreSQL upserts in one statement or COPYs).
extension SQLDatabase {
    /// The stored profile columns, in schema order, as every query that
    /// reads a `Profile` selects them (`Profile(row:)` reads them by name).
    public static var profileColumns: String {
        "id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km"
    }

    /// The profile with external id `id`, or nil.
    public func profile(id: String) throws -> Profile? {
        guard executor.dialect.canHold(id) else { return nil }
        return try read {
            try executor.first(Profile.self, "SELECT \(Self.profileColumns) FROM profiles WHERE id = $1", [.text(id)])
        }
    }

    /// The profile with external id `id` as `viewer` may see it: nil when
    /// there is none, when a block stands between the two either way, or
    /// while the profile is suspended.
    /// One answer for "blocked", "erased" and "never existed", so that no
    /// one learns from it that they were blocked (Documentation/Moderation.md).
    public func profile(id: String, seenBy viewer: String) throws -> Profile? {
        guard executor.dialect.canHold(id), executor.dialect.canHold(viewer) else { return nil }
        return try read {
            try executor.first(
                Profile.self,
                "SELECT \(Self.profileColumns) FROM profiles AS p WHERE p.id = $1 AND " + Self.noBlockWith("$2")
                    + " AND " + Self.notSuspended("p.key", executor.dialect),
                [.text(id), .text(viewer)])
        }
    }

    /// The condition that no block stands, either way, between the profile
    /// `p` of the query and the profile whose external id is `viewerID`
    /// (a placeholder or an expression).
    package static func noBlockWith(_ viewerID: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM blocks AS nb JOIN profiles AS nv ON nv.id = \(viewerID)
                    WHERE (nb.blocker = nv.key AND nb.blocked = p.key) OR (nb.blocker = p.key AND nb.blocked = nv.key))
        """
    }

    /// The profile with internal key `key`, or nil.
    package func profile(key: Int) throws -> Profile? {
        try executor.first(Profile.self, "SELECT \(Self.profileColumns) FROM profiles WHERE key = $1", [.int(key)])
    }

    /// Whether a profile has external id `id`.
    public func isProfile(_ id: String) throws -> Bool {
        try read { try profileKey(id: id) != nil }
    }

    /// Up to `limit` profile ids that begin with `prefix`, in byte order (for
    /// Tab completion: a range of the unique index on `id`, cut where the ids
    /// stop sharing the prefix, however many profiles there are).
    public func profileIDs(startingWith prefix: String, limit: Int) throws -> [String] {
        guard executor.dialect.canHold(prefix), limit > 0 else { return [] }
        let sql = Self.profileIDsSQL(executor.dialect)
        return try read {
            var ids: [String] = []
            try executor.each(sql, [.text(prefix), .int(limit)]) { row in
                let id = try row.text("id")
                guard id.utf8.starts(with: prefix.utf8) else { return false }
                ids.append(id)
                return true
            }
            return ids
        }
    }
}

extension SQLDatabase {
    /// The first ids at or after `$1` in byte order, at most `$2`: read off
    /// the unique index on `id` (which is `COLLATE "C"` on PostgreSQL).
    public static func profileIDsSQL(_ dialect: SQLDialect) -> String {
        "SELECT id FROM profiles WHERE id" + dialect.byteOrder + " >= $1 ORDER BY id" + dialect.byteOrder + " LIMIT $2"
    }
}

extension Profile: FetchableRow {
    /// A profile from the columns `SQLDatabase.profileColumns` names, on any
    /// backend: `photos` and `interests` as their stored JSON arrays,
    /// `seeking` as `;`-separated genders.
    public init(row: some SQLRow) throws {
        let lat = try row.optionalDouble("lat"), lon = try row.optionalDouble("lon")
        self.init(
            id: try row.text("id"), name: try row.text("name"), age: try row.int("age"),
            gender: try row.optionalText("gender"), city: try row.optionalText("city"),
            bio: try row.optionalText("bio"),
            photos: Self.strings(fromJSON: try row.text("photos")),
            interests: Self.strings(fromJSON: try row.text("interests")),
            location: lat.flatMap { lat in lon.map { Location(lat: lat, lon: $0) } },
            preferences: Preferences(
                seeking: try row.optionalText("seeking").map { $0.split(separator: ";").map(String.init) } ?? [],
                ageMin: try row.int("age_min"), ageMax: try row.int("age_max"), maxKm: try row.optionalDouble("max_km"))
        )
    }

    private static func strings(fromJSON text: String) -> [String] {
        guard text != "[]" else { return [] }
        return JSONText.strings(fromArray: text) ?? []
    }
}
