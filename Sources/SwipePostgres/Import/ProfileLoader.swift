import Foundation
import SwipeCSV

/// Loads a profile import's checked rows (`ProfileRow`s, in file order) into
/// PostgreSQL inside the import's transaction, with COPY in binary format.
///
/// When `profiles` is empty (a first import) the rows are copied straight
/// into it: every row is new, so there is nothing to compare. Otherwise they
/// are copied into a temporary table (ON COMMIT DROP), then one UPDATE sets
/// the file's columns of the known ids that differ and one INSERT adds the
/// new ids in file order. The two statements, not an upsert, because
/// `INSERT … ON CONFLICT` draws an identity key for every row it tries,
/// conflicting ones included: keys would jump by the number of re-imported
/// profiles at every re-import, where SQLite's stay dense. `profiles` is
/// locked against other writers (SHARE ROW EXCLUSIVE; readers go on) for the
/// transaction, so no id can appear between the two.
final class ProfileLoader {
    private enum State {
        /// `begin()` not called yet.
        case ready
        /// Rows go to `stream`; `staged` tells where (temporary table or `profiles`).
        case copying(PGCopyStream, staged: Bool)
        /// The COPY into the temporary table ended (`endCopy`), with this many rows.
        case staged(copied: Int)
        /// A bad row doomed the import: later rows are checked, not sent.
        case discarding
        case finished
    }

    private let connection: PGConnection
    /// Which of the optional column groups the file has, in `updateSQL`'s
    /// parameter order: gender, city, bio, photos, interests, lat+lon,
    /// seeking, age_min+age_max, max_km.
    private let updates: [Bool]
    /// Of name and age, those the file lacks: a partial re-import, whose
    /// rows must all name profiles that exist (`newIDs`).
    let missing: [String]
    private var state = State.ready
    private var rowsSent = 0

    init(connection: PGConnection, fileColumns: Set<String>) {
        self.connection = connection
        let has = fileColumns.contains
        updates = [
            has("gender"), has("city"), has("bio"), has("photos"), has("interests"),
            has("lat") || has("lon"), has("seeking"), has("age_min") || has("age_max"), has("max_km"),
            has("name"), has("age"),
        ]
        missing = ProfileCSV.Column.missing(fromFileWith: fileColumns)
    }

    /// Locks `profiles` and starts the COPY (inside the open transaction).
    func begin() throws {
        guard case .ready = state else { preconditionFailure("ProfileLoader.begin twice") }
        try connection.execute("LOCK TABLE profiles IN SHARE ROW EXCLUSIVE MODE")
        let empty = try connection.scalarInt("SELECT count(*) FROM (SELECT 1 FROM profiles LIMIT 1) AS one") == 0
        // A partial file is staged even into an empty table: its new ids are refused.
        let staged = !empty || !missing.isEmpty
        if staged { try connection.execute(Self.createStagingSQL) }
        let stream = try PGCopyStream(
            connection: connection, sql: staged ? Self.copyIntoStagingSQL : Self.copyIntoProfilesSQL)
        try stream.write { $0.binaryHeader() }
        state = .copying(stream, staged: staged)
    }

    /// Ends the COPY into the temporary table (once), so it can be queried.
    func endCopy() throws {
        guard case .copying(let stream, true) = state else { return }
        try stream.write { $0.binaryTrailer() }
        state = .staged(copied: try stream.finish())
    }

    /// The staged rows whose id names no profile, in file order: for a
    /// partial file, each is refused (`ProfileCSV.newProfileIssue`).
    func newIDs() throws -> [(line: Int, id: String)] {
        try endCopy()
        guard case .staged = state else { return [] }
        let refused = try connection.query(
            """
            SELECT t.line, t.id FROM swipe_import_profiles AS t
            WHERE NOT EXISTS (SELECT 1 FROM profiles AS q WHERE q.id = t.id) ORDER BY t.line
            """
        ).map { (try $0.int(0), try $0.text(1)) }
        // Never inserted (with --skip-invalid the rest of the file goes in).
        try connection.execute(
            "DELETE FROM swipe_import_profiles AS t WHERE NOT EXISTS (SELECT 1 FROM profiles AS q WHERE q.id = t.id)")
        return refused
    }

    /// A text PostgreSQL cannot store (it holds a NUL): the row is refused.
    struct NULInText: Error {
        var column: String
        var value: String
    }

    /// Sends `row` (file line `line`). Throws `NULInText` for a row whose
    /// text holds a NUL character, before anything of it is sent.
    func add(_ row: ProfileRow, line: Int) throws {
        try Self.checkNoNUL(row)
        guard case .copying(let stream, let staged) = state else { return }
        try stream.write { try $0.writeProfile(row, line: staged ? line : nil) }
        rowsSent += 1
    }

    /// Stops sending: the import will not be committed (a bad row), so the
    /// rest is only checked.
    func discard() {
        if case .copying(let stream, _) = state { stream.abort("a bad row: the import is rolled back") }
        state = .discarding
    }

    /// Ends the COPY and writes the rows: how many were inserted, updated
    /// and left unchanged. `checking` runs between statements (it throws to
    /// stop: Ctrl-C).
    func finish(checking: () throws -> Void) throws -> (inserted: Int, updated: Int, unchanged: Int) {
        let copied: Int
        switch state {
        case .copying(let stream, let staged):
            try stream.write { $0.binaryTrailer() }
            copied = try stream.finish()
            state = .finished
            guard staged else { return (copied, 0, 0) }
        case .staged(let count):
            copied = count
            state = .finished
        default:
            state = .finished
            return (0, 0, 0)
        }
        // Fresh statistics: without them the planner guesses the temporary
        // table's size and may probe `profiles` once per row.
        try connection.execute("ANALYZE swipe_import_profiles")
        let arguments = updates.map { PostgresValue.boolean($0) }
        try checking()
        let updated = try connection.statement(Self.updateSQL).run(arguments)
        try checking()
        let inserted = try connection.run(Self.insertSQL)
        if updated > 0 {
            // An updated profile may now be eligible for feeds that passed it
            // (README "Discovery"): they start again from the first key.
            try connection.execute("DELETE FROM feed_cursors; DELETE FROM liker_cursors")
        }
        return (inserted, updated, copied - inserted - updated)
    }

    /// Aborts a COPY still open (the import failed or was interrupted).
    func abort() {
        if case .copying(let stream, _) = state { stream.abort("the import stopped") }
        state = .finished
    }

    static func checkNoNUL(_ row: ProfileRow) throws {
        for column in ProfileRow.Column.allCases {
            guard let range = row.texts[column.rawValue] else { continue }
            let hasNUL = row.bytes.withUnsafeBufferPointer {
                memchr($0.baseAddress! + range.lowerBound, 0, range.count) != nil
            }
            if hasNUL { throw NULInText(column: "\(column)", value: row.text(column) ?? "") }
        }
    }

    // MARK: - SQL

    static let copyIntoProfilesSQL = """
        COPY profiles (id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km) \
        FROM STDIN (FORMAT binary)
        """

    static let createStagingSQL = """
        CREATE TEMPORARY TABLE swipe_import_profiles (
            line bigint NOT NULL, id text NOT NULL, name text NOT NULL, age integer NOT NULL,
            gender text, city text, bio text, photos text NOT NULL, interests text NOT NULL,
            lat double precision, lon double precision, seeking text,
            age_min integer NOT NULL, age_max integer NOT NULL, max_km double precision
        ) ON COMMIT DROP
        """

    static let copyIntoStagingSQL = "COPY swipe_import_profiles FROM STDIN (FORMAT binary)"

    /// Sets, on each known id, the columns the file has ($1…$11 say which:
    /// the others keep their stored values), where anything differs. One
    /// join of the staged rows with `profiles` (a subquery joining it again
    /// cost a third more on a 1M re-import). `json` has no equality: photos
    /// and interests compare as their text, which `json` keeps exactly as
    /// written (SQLite compares the text too).
    static let updateSQL = """
        UPDATE profiles AS p
        SET name = CASE WHEN $10 THEN t.name ELSE p.name END, age = CASE WHEN $11 THEN t.age ELSE p.age END,
            gender = CASE WHEN $1 THEN t.gender ELSE p.gender END,
            city = CASE WHEN $2 THEN t.city ELSE p.city END,
            bio = CASE WHEN $3 THEN t.bio ELSE p.bio END,
            photos = CASE WHEN $4 THEN t.photos::json ELSE p.photos END,
            interests = CASE WHEN $5 THEN t.interests::json ELSE p.interests END,
            lat = CASE WHEN $6 THEN t.lat ELSE p.lat END,
            lon = CASE WHEN $6 THEN t.lon ELSE p.lon END,
            seeking = CASE WHEN $7 THEN t.seeking ELSE p.seeking END,
            age_min = CASE WHEN $8 THEN t.age_min ELSE p.age_min END,
            age_max = CASE WHEN $8 THEN t.age_max ELSE p.age_max END,
            max_km = CASE WHEN $9 THEN t.max_km ELSE p.max_km END
        FROM swipe_import_profiles AS t
        WHERE p.id = t.id
          AND (p.name, p.age, p.gender, p.city, p.bio, p.photos::text, p.interests::text, p.lat, p.lon, p.seeking,
               p.age_min, p.age_max, p.max_km)
              IS DISTINCT FROM
              (CASE WHEN $10 THEN t.name ELSE p.name END, CASE WHEN $11 THEN t.age ELSE p.age END, CASE WHEN $1 THEN t.gender ELSE p.gender END, CASE WHEN $2 THEN t.city ELSE p.city END,
               CASE WHEN $3 THEN t.bio ELSE p.bio END, CASE WHEN $4 THEN t.photos ELSE p.photos::text END,
               CASE WHEN $5 THEN t.interests ELSE p.interests::text END, CASE WHEN $6 THEN t.lat ELSE p.lat END,
               CASE WHEN $6 THEN t.lon ELSE p.lon END, CASE WHEN $7 THEN t.seeking ELSE p.seeking END,
               CASE WHEN $8 THEN t.age_min ELSE p.age_min END, CASE WHEN $8 THEN t.age_max ELSE p.age_max END,
               CASE WHEN $9 THEN t.max_km ELSE p.max_km END)
        """

    /// Adds the ids `profiles` lacks, in file order (their keys follow it, as on SQLite).
    static let insertSQL = """
        INSERT INTO profiles (id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km)
        SELECT t.id, t.name, t.age, t.gender, t.city, t.bio, t.photos::json, t.interests::json, t.lat, t.lon, t.seeking,
               t.age_min, t.age_max, t.max_km
        FROM swipe_import_profiles AS t
        WHERE NOT EXISTS (SELECT 1 FROM profiles AS q WHERE q.id = t.id)
        ORDER BY t.line
        """
}
