import Foundation
import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport

/// One SQLite file and one fresh PostgreSQL database side by side, to import
/// the same files into both and compare what each answers and stores. The
/// SQLite importer is the reference: its messages and counts are the
/// contract (README "Profiles CSV"), which the PostgreSQL one must repeat.
final class ImportBackends {
    let folder = TemporaryFolder("swipe-pgimport")
    let database: PostgresTestDatabase
    let pg: PGConnection
    let sqlite: SQLiteStore

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let schema = try! String(contentsOf: root.appendingPathComponent("schema.postgres.sql"), encoding: .utf8)

    init() throws {
        database = try PostgresTestDatabase()
        pg = try database.connect()
        sqlite = try SQLiteStore(path: folder.path + "/test.sqlite")
    }

    /// What an import answered, without its timing: the summary line's
    /// counts and every rejected row, or the error's whole text.
    enum Answer: Equatable, CustomStringConvertible {
        case imported(inserted: Int, updated: Int, unchanged: Int, rejected: [String])
        case failed(String)

        init(_ body: () throws -> ImportSummary) {
            do {
                let summary = try body()
                self = .imported(
                    inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
                    rejected: summary.rejected.map(\.description))
            } catch {
                self = .failed(String(describing: error))
            }
        }

        var description: String {
            switch self {
            case let .imported(inserted, updated, unchanged, rejected):
                "\(inserted) inserted, \(updated) updated, \(unchanged) unchanged, rejected: \(rejected)"
            case .failed(let text): "failed: \(text)"
            }
        }
    }

    static func options(skipInvalid: Bool) -> ImportOptions {
        var options = ImportOptions()
        options.skipInvalid = skipInvalid
        return options
    }

    func importProfilesIntoSQLite(_ path: String, skipInvalid: Bool = false) -> Answer {
        Answer { try sqlite.importProfiles(path: path, options: Self.options(skipInvalid: skipInvalid)) }
    }

    func importProfilesIntoPostgres(_ path: String, options: ImportOptions) -> Answer {
        Answer { try PostgresImport.profiles(connection: pg, path: path, options: options, schema: Self.schema) }
    }

    func importProfilesIntoPostgres(_ path: String, skipInvalid: Bool = false) -> Answer {
        importProfilesIntoPostgres(path, options: Self.options(skipInvalid: skipInvalid))
    }

    func importDecisionsIntoSQLite(_ path: String, skipInvalid: Bool = false) -> Answer {
        Answer { try sqlite.importDecisions(path: path, options: Self.options(skipInvalid: skipInvalid)) }
    }

    func importDecisionsIntoPostgres(_ path: String, skipInvalid: Bool = false) -> Answer {
        Answer {
            try PostgresImport.decisions(
                connection: pg, path: path, options: Self.options(skipInvalid: skipInvalid), schema: Self.schema)
        }
    }

    /// Both imports of `path`: (SQLite, PostgreSQL).
    func importProfiles(_ path: String, skipInvalid: Bool = false) -> (sqlite: Answer, postgres: Answer) {
        (
            importProfilesIntoSQLite(path, skipInvalid: skipInvalid),
            importProfilesIntoPostgres(path, skipInvalid: skipInvalid)
        )
    }

    func importDecisions(_ path: String, skipInvalid: Bool = false) -> (sqlite: Answer, postgres: Answer) {
        (
            importDecisionsIntoSQLite(path, skipInvalid: skipInvalid),
            importDecisionsIntoPostgres(path, skipInvalid: skipInvalid)
        )
    }

    // MARK: - What is stored, read the same way from both

    /// Every profile in key order, each column as text ("NULL" for NULL;
    /// numbers printed by Swift, so both read alike).
    static let profilesSQL = """
        SELECT key, id, name, age, gender, city, bio, photos, interests, lat, lon, seeking, age_min, age_max, max_km
        FROM profiles ORDER BY key
        """

    func storedProfiles() throws -> (sqlite: [[String]], postgres: [[String]]) {
        let doubles: Set<Int> = [9, 10, 14], ints: Set<Int> = [0, 3, 12, 13]
        let sqliteRows = try sqlite.connection.statement(Self.profilesSQL).map { row in
            (0..<15).map { column -> String in
                if row.isNull(Int32(column)) { return "NULL" }
                if doubles.contains(column) { return String(row.double(Int32(column))) }
                if ints.contains(column) { return String(row.int(Int32(column))) }
                return row.text(Int32(column))
            }
        }
        let postgresRows = try pg.query(Self.profilesSQL).map { row in
            try (0..<15).map { column -> String in
                if try row.isNull(column) { return "NULL" }
                if doubles.contains(column) { return String(try row.double(column)) }
                if ints.contains(column) { return String(try row.int(column)) }
                return try row.text(column)
            }
        }
        // A stored photo's path is made with its database's own secret
        // (Documentation/Photos.md), so each path is compared as the
        // content it names: the SHA-256 of the bytes stored under it.
        let sqliteHashes = Dictionary(
            uniqueKeysWithValues: try sqlite.connection.statement("SELECT id, sha256 FROM photos").map {
                ($0.text(0), $0.text(1))
            })
        let postgresHashes = Dictionary(
            uniqueKeysWithValues: try pg.query("SELECT id, sha256 FROM photos").map { (try $0.text(0), try $0.text(1)) }
        )
        func contents(_ rows: [[String]], _ hashes: [String: String]) -> [[String]] {
            rows.map { row in
                row.map { text in
                    hashes.reduce(text) {
                        $0.replacingOccurrences(of: "/photos/" + $1.key, with: "/photos/sha256:" + $1.value)
                    }
                }
            }
        }
        return (contents(sqliteRows, sqliteHashes), contents(postgresRows, postgresHashes))
    }

    /// How many photos each database stores.
    func storedPhotoCounts() throws -> (sqlite: Int, postgres: Int) {
        (
            try sqlite.connection.scalarInt("SELECT count(*) FROM photos") ?? -1,
            try pg.scalarInt("SELECT count(*) FROM photos") ?? -1
        )
    }

    static let decisionsSQL = """
        SELECT v.id, p.id, d.decision, d.via, d.decided_at FROM decisions AS d
        JOIN profiles AS v ON v.key = d.viewer JOIN profiles AS p ON p.key = d.profile
        WHERE d.undone_at IS NULL ORDER BY d.key
        """

    static let matchesSQL = """
        SELECT l.id, h.id, m.matched_at FROM matches AS m
        JOIN profiles AS l ON l.key = m.low JOIN profiles AS h ON h.key = m.high
        WHERE m.unmatched_at IS NULL ORDER BY l.id, h.id
        """

    /// `sql`'s rows (every column text) from both.
    func texts(_ sql: String, columns: Int) throws -> (sqlite: [[String]], postgres: [[String]]) {
        let sqliteRows = try sqlite.connection.statement(sql).map { row in
            (0..<columns).map { row.isNull(Int32($0)) ? "NULL" : row.text(Int32($0)) }
        }
        let postgresRows = try pg.query(sql).map { row in
            try (0..<columns).map { try row.isNull($0) ? "NULL" : row.text($0) }
        }
        return (sqliteRows, postgresRows)
    }

    /// How many rows `table` holds on PostgreSQL, nil when it does not exist.
    func postgresCount(_ table: String) throws -> Int? {
        guard try pg.scalarInt("SELECT count(*) FROM pg_class WHERE relname = $1 AND relkind = 'r'", .text(table)) == 1
        else {
            return nil
        }
        return try pg.scalarInt("SELECT count(*) FROM " + pg.quotedIdentifier(table))
    }
}
