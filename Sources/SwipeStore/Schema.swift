import CSQLite

/// The database schema and its versions.
///
/// A new database gets schema.sql whole (`Schema.sql`, embedded). An older one
/// is brought forward by `migrations`, one forward-only step per version; there
/// are no down steps. A database newer than this binary is refused.
public enum Schema {
    /// The version schema.sql creates (its `PRAGMA user_version`).
    public static let version = 2

    /// Steps from version `from` to `from + 1`, in order, each run inside the
    /// one write transaction of `prepare` (a failure leaves the file as it was).
    static var migrations: [(from: Int, sql: String)] { [(1, SchemaV2.migration)] }

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

    /// The statements of schema.sql, each whole (comments before it included),
    /// split where SQLite says a statement is complete (a trigger's inner
    /// semicolons do not end it).
    static let statements: [String] = {
        var result: [String] = []
        var pending = ""
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            pending += line + "\n"
            if sqlite3_complete(pending) != 0 {
                result.append(pending)
                pending = ""
            }
        }
        return result
    }()

    /// The statement of schema.sql that begins `prefix` once its comments are
    /// set aside (e.g. `CREATE TABLE blocks `): migrations create new objects
    /// from the one schema text rather than from a copy of it.
    static func statement(_ prefix: String) -> String {
        let found = statements.compactMap { statement -> String? in
            let code = statement.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            return code.hasPrefix(prefix) ? code : nil
        }
        precondition(found.count == 1, "schema.sql has \(found.count) statements beginning \(prefix)")
        return found[0]
    }
}
