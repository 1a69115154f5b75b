/// The database schema and its versions.
///
/// A new database gets schema.sql whole (`Schema.sql`, embedded). An older one
/// is brought forward by `migrations`, one forward-only step per version; there
/// are no down steps. A database newer than this binary is refused.
public enum Schema {
    /// The version schema.sql creates (its `PRAGMA user_version`).
    public static let version = 1

    /// Steps from version `from` to `from + 1`, in order. Version 1 is the
    /// first published schema, so there are none yet; the next change to
    /// schema.sql adds `(1, "ALTER TABLE …; PRAGMA user_version = 2;")` here.
    static let migrations: [(from: Int, sql: String)] = []

    /// Brings the database on `connection` to `version`: creates it when empty,
    /// migrates it when older, and throws `StoreError.newerSchema` when newer.
    public static func prepare(_ connection: Connection) throws {
        let found = try connection.scalarInt("PRAGMA user_version") ?? 0
        if found > version {
            throw StoreError.newerSchema(path: connection.path, found: found, supported: version)
        }
        if found == version { return }
        try connection.writeTransaction {
            // Re-read under the write lock: another process may have created it.
            let current = try connection.scalarInt("PRAGMA user_version") ?? 0
            if current == 0 {
                try connection.execute(sql)
                return
            }
            for step in migrations where step.from >= current {
                try connection.execute(step.sql)
            }
        }
    }
}
