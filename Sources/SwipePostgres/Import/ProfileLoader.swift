import Foundation
import SwipeCSV

/// Loads a profile import's checked rows (`ProfileRow`s, in file order) into
/// PostgreSQL inside the import's transaction, with COPY in binary format.
///
/// When `profiles` is empty (a first import) the rows are copied straight
/// into it: every row is new, so there is nothing to compare. When the
/// import also made the table (the schema came in its transaction, so no
/// other session can see it), its secondary indexes (the unique id and the
/// two place indexes) are dropped before the COPY and built again after it,
/// from their definitions read from the catalog just before (so
/// schema.postgres.sql stays the one place they are written):
/// one sort each instead of a B-tree insertion per row, which cost 3–4× the
/// COPY itself (300k profiles with a place: 7.0 s into the indexed table
/// against 1.6 s, plus 0.8 s for the three builds).
///
/// Otherwise the rows are copied into a temporary table (ON COMMIT DROP),
/// then one statement (`mergeSQL`) joins them with `profiles` once: the
/// known ids whose file columns differ get those columns set, the new ids
/// are inserted in file order, and the ids whose rows are unchanged cost
/// that one join and nothing else. An UPDATE and an INSERT, not an upsert,
/// because `INSERT … ON CONFLICT` draws an identity key for every row it
/// tries, conflicting ones included: keys would jump by the number of
/// re-imported profiles at every re-import, where SQLite's stay dense.
/// `profiles` is locked against other writers (SHARE ROW EXCLUSIVE; readers
/// go on) for the transaction, so no id can appear meanwhile.
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
    /// Which of the optional column groups the file has, in `mergeSQL`'s
    /// parameter order: gender, city, bio, photos, interests, lat+lon,
    /// seeking, age_min+age_max, max_km.
    private let updates: [Bool]
    /// Of name and age, those the file lacks: a partial re-import, whose
    /// rows must all name profiles that exist (`newIDs`).
    let missing: [String]
    private var state = State.ready
    private var rowsSent = 0
    /// The rows went straight into `profiles`, found empty (and locked).
    private(set) var intoEmptyTable = false
    /// `profiles` was made by this import's transaction (a first import).
    private let tableIsNew: Bool
    /// The statements that build again the indexes dropped for the COPY
    /// (`finish` runs them, in order): the unique id, and the place indexes
    /// when the file has places.
    private var dropped: [String] = []

    /// `tableIsNew`: `profiles` was made in this transaction (the schema
    /// came with the import), so no other session can see it yet.
    init(connection: PGConnection, fileColumns: Set<String>, tableIsNew: Bool = false) {
        self.connection = connection
        self.tableIsNew = tableIsNew
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
        if staged {
            try connection.execute(Self.createStagingSQL)
        } else if tableIsNew {
            // Without places, the place indexes (partial: located rows only)
            // cost a test per row, less than a scan of the table to build them.
            let indexes = try connection.query(Self.secondaryIndexesSQL, .boolean(updates[5])).map {
                (drop: try $0.text(0), build: try $0.text(1))
            }
            let drops = indexes.map(\.drop).joined(separator: ";\n")
            if !indexes.isEmpty { try connection.execute(drops) }
            dropped = indexes.map(\.build)
        }
        intoEmptyTable = !staged
        let sql =
            staged
            ? Self.copyIntoStagingSQL : tableIsNew ? Self.copyIntoNewProfilesSQL : Self.copyIntoProfilesSQL
        let stream = try PGCopyStream(connection: connection, sql: sql)
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
            guard staged else {
                for build in dropped {
                    try checking()
                    try connection.execute(build)
                }
                dropped = []
                return (copied, 0, 0)
            }
        case .staged(let count):
            copied = count
            state = .finished
        default:
            state = .finished
            return (0, 0, 0)
        }
        // No ANALYZE of the temporary table (it cost as much as half the
        // join): its size is read from its file at planning time, and `id` is
        // unique in `profiles`, which is what the join's estimate needs.
        try connection.execute(Self.mergeMemorySQL)
        try checking()
        let arguments = updates.map { PostgresValue.boolean($0) }
        let counts = try connection.statement(Self.mergeSQL).first(arguments) { (try $0.int(0), try $0.int(1)) }
        let (updated, inserted) = counts ?? (0, 0)
        try checking()
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

    /// Into a `profiles` this transaction made: FREEZE writes the rows
    /// frozen and their pages all-visible, so neither the index builds and
    /// the ANALYZE after the COPY nor the first sessions set hint bits on
    /// every row (or look up the import's commit to do so). No other session
    /// could have seen the table empty: it did not exist before the commit.
    static let copyIntoNewProfilesSQL = """
        COPY profiles (id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km) \
        FROM STDIN (FORMAT binary, FREEZE)
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

    /// Before the COPY into a table this import made: its indexes but the
    /// primary key (which the other tables' foreign keys need), each as
    /// (the statement that drops it, the one that builds it again), both
    /// written by the server from its catalog: `pg_get_constraintdef` for a
    /// constraint's index (the unique id), `pg_get_indexdef` for the others.
    /// The partial ones (located rows only: the place indexes) only when $1
    /// (the file has places). The constraint first: it is built first, the
    /// index the import's later statements lean on most. `ProfileImportTests`
    /// compares the catalog's definitions after an import with a schema made
    /// without one.
    static let secondaryIndexesSQL = """
        SELECT CASE WHEN c.oid IS NULL THEN format('DROP INDEX %s', x.indexrelid::regclass)
                    ELSE format('ALTER TABLE %s DROP CONSTRAINT %I', x.indrelid::regclass, c.conname) END,
               CASE WHEN c.oid IS NULL THEN pg_get_indexdef(x.indexrelid)
                    ELSE format('ALTER TABLE %s ADD CONSTRAINT %I %s', x.indrelid::regclass, c.conname,
                                pg_get_constraintdef(c.oid)) END
        FROM pg_index AS x
        LEFT JOIN pg_constraint AS c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
        WHERE x.indrelid = 'profiles'::regclass AND NOT x.indisprimary AND ($1 OR x.indpred IS NULL)
        ORDER BY c.oid IS NULL, x.indexrelid::regclass::text
        """

    /// Room for `mergeSQL`'s hash of `profiles` (the rows it compares), for
    /// the rest of the import's transaction: with the default 4 MB it was
    /// split into batches written to disk and read again (8 at 300k
    /// profiles), a third of the join's time.
    static let mergeMemorySQL = "SET LOCAL work_mem = '256MB'"

    /// The staged rows against `profiles`, in one join: `changes` holds the
    /// new ids and the known ids where anything of the file's columns differs
    /// ($1…$11 say which columns the file has: the others keep their stored
    /// values, and are compared with themselves); the known ones get those
    /// columns set and the new ones are inserted in file order (their keys
    /// follow it, as on SQLite). Answers (updated, inserted). An unchanged
    /// re-import leaves `changes` empty: the UPDATE's and the INSERT's scans
    /// of it end at once. `json` has no equality: photos and interests
    /// compare as their text, which `json` keeps exactly as written (SQLite
    /// compares the text too).
    static let mergeSQL = """
        WITH changes AS MATERIALIZED (
            SELECT t.line, p.key, t.id, t.name, t.age, t.gender, t.city, t.bio, t.photos, t.interests, t.lat, t.lon,
                   t.seeking, t.age_min, t.age_max, t.max_km
            FROM swipe_import_profiles AS t LEFT JOIN profiles AS p ON p.id = t.id
            WHERE p.key IS NULL
               OR (p.name, p.age, p.gender, p.city, p.bio, p.photos::text, p.interests::text, p.lat, p.lon, p.seeking,
                   p.age_min, p.age_max, p.max_km)
                  IS DISTINCT FROM
                  (CASE WHEN $10 THEN t.name ELSE p.name END, CASE WHEN $11 THEN t.age ELSE p.age END,
                   CASE WHEN $1 THEN t.gender ELSE p.gender END, CASE WHEN $2 THEN t.city ELSE p.city END,
                   CASE WHEN $3 THEN t.bio ELSE p.bio END, CASE WHEN $4 THEN t.photos ELSE p.photos::text END,
                   CASE WHEN $5 THEN t.interests ELSE p.interests::text END, CASE WHEN $6 THEN t.lat ELSE p.lat END,
                   CASE WHEN $6 THEN t.lon ELSE p.lon END, CASE WHEN $7 THEN t.seeking ELSE p.seeking END,
                   CASE WHEN $8 THEN t.age_min ELSE p.age_min END, CASE WHEN $8 THEN t.age_max ELSE p.age_max END,
                   CASE WHEN $9 THEN t.max_km ELSE p.max_km END)
        ),
        updated AS (
            UPDATE profiles AS p
            SET name = CASE WHEN $10 THEN c.name ELSE p.name END, age = CASE WHEN $11 THEN c.age ELSE p.age END,
                gender = CASE WHEN $1 THEN c.gender ELSE p.gender END,
                city = CASE WHEN $2 THEN c.city ELSE p.city END,
                bio = CASE WHEN $3 THEN c.bio ELSE p.bio END,
                photos = CASE WHEN $4 THEN c.photos::json ELSE p.photos END,
                interests = CASE WHEN $5 THEN c.interests::json ELSE p.interests END,
                lat = CASE WHEN $6 THEN c.lat ELSE p.lat END,
                lon = CASE WHEN $6 THEN c.lon ELSE p.lon END,
                seeking = CASE WHEN $7 THEN c.seeking ELSE p.seeking END,
                age_min = CASE WHEN $8 THEN c.age_min ELSE p.age_min END,
                age_max = CASE WHEN $8 THEN c.age_max ELSE p.age_max END,
                max_km = CASE WHEN $9 THEN c.max_km ELSE p.max_km END
            FROM changes AS c
            WHERE p.key = c.key
            RETURNING 1
        ),
        inserted AS (
            INSERT INTO profiles (id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km)
            SELECT c.id, c.name, c.age, c.gender, c.city, c.bio, c.photos::json, c.interests::json, c.lat, c.lon,
                   c.seeking, c.age_min, c.age_max, c.max_km
            FROM changes AS c
            WHERE c.key IS NULL
            ORDER BY c.line
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM updated), (SELECT count(*) FROM inserted)
        """
}
