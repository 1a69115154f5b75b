import CSQLite
import Foundation
import SwipeCSV
import SwipeCore
import SwipeStore

extension SQLiteStore {
    /// SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | 8 << 8), a macro Swift does not import.
    static let constraintUnique = SQLITE_CONSTRAINT | 8 << 8

    /// Inserts `profile`, or updates the profile with the same id in place
    /// (keeping its internal key, so decisions and the feed order survive).
    @discardableResult
    public func upsert(_ profile: Profile) throws -> UpsertOutcome {
        var row = ProfileRow()
        row.append(profile)
        return try profileUpsert().run(row)
    }

    /// The prepared upsert statements, for a loop that writes many rows
    /// (fetched once, so the loop does not hash their SQL per row).
    /// An existing profile gets only the `updating` columns (the ones an
    /// import file has; by default all), and keeps the others; when those
    /// already hold the new values nothing is written (`unchanged`).
    func profileUpsert(updating: [SQLiteImporter.ProfileColumn] = SQLiteImporter.ProfileColumn.allCases) throws
        -> ProfileUpsert
    {
        let insert =
            "INSERT INTO profiles (\(Self.profileColumns)) VALUES ("
            + (1...Int(ProfileRow.parameterCount)).map { "?\($0)" }.joined(separator: ", ") + ")"
        // An upsert, not an UPDATE: it binds the same fourteen parameters
        // whichever columns it sets.
        // The SET list is made of `ProfileColumn` names: constants, never values.
        let columns = updating.filter { $0 != .id }.map(\.name)
        let set = columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let changed = columns.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        // A file of ids only (a partial re-import with nothing else) changes nothing.
        let upsert =
            set.isEmpty
            ? insert + " ON CONFLICT (id) DO NOTHING"
            : insert + " ON CONFLICT (id) DO UPDATE SET " + set + (changed.isEmpty ? "" : " WHERE " + changed)
        return try ProfileUpsert(
            connection: connection, insert: connection.statement(insert), update: connection.statement(upsert))
    }

    /// Calls `body` with every profile in internal-key order, one row at a
    /// time (memory stays flat however many there are).
    public func forEachProfile(_ query: ProfileQuery, _ body: (Profile) throws -> Void) throws {
        try forEachSQLiteRow(query) { try body(Profile(row: $0)) }
    }

    /// Calls `body` with each profile `query` selects as the stored row
    /// itself: columns 0…13 in `profileColumns` order (`photos` and
    /// `interests` as their stored JSON arrays), read with `Row.bytes`
    /// without making a `Profile`, for output that streams millions.
    public func forEachProfileRow(_ query: ProfileQuery, _ body: (any StoredRow) throws -> Void) throws {
        try forEachSQLiteRow(query) { try body($0) }
    }

    /// `forEachProfileRow` with SQLite's own row.
    func forEachSQLiteRow(_ query: ProfileQuery, _ body: (Row) throws -> Void) throws {
        try connection.statement(
            """
            SELECT \(Self.profileColumns) FROM profiles
            WHERE (?1 IS NULL OR city = ?1 COLLATE NOCASE) AND (?2 IS NULL OR age BETWEEN ?2 AND ?3)
            ORDER BY key LIMIT ?4 OFFSET ?5
            """
        ).bind(
            .optionalText(query.city), query.ages.map { .int($0.lowerBound) } ?? .null,
            query.ages.map { .int($0.upperBound) } ?? .null, .int(query.limit ?? -1), .int(query.offset)
        ).forEachRow(body)
    }
}

/// Writes profile rows: `SQLiteStore.profileUpsert()`.
struct ProfileUpsert {
    let connection: SQLiteConnection
    let insert: Statement
    let update: Statement

    /// Inserts `row`, or updates the profile with its id in place (or
    /// leaves it, `unchanged`, when it already holds these values). The
    /// insert is tried first and the upsert runs only when it conflicts on
    /// `id` (SQLITE_CONSTRAINT_UNIQUE: the key is never bound, so `id` is the
    /// only unique column it can hit), which spares a new profile the
    /// lookup by id. A failed insert changes nothing: SQLite undoes the
    /// statement, not the transaction around it.
    func run(_ row: ProfileRow) throws -> UpsertOutcome {
        var code = try row.run(insert)
        if code == SQLITE_DONE { return .inserted }
        guard sqlite3_extended_errcode(connection.handle) == SQLiteStore.constraintUnique else {
            throw connection.error(code: code, sql: insert.sql, arguments: row.arguments)
        }
        code = try row.run(update)
        guard code == SQLITE_DONE else { throw connection.error(code: code, sql: update.sql, arguments: row.arguments) }
        // The update matches no row when every column already holds its value.
        return sqlite3_changes(connection.handle) == 0 ? .unchanged : .updated
    }
}
