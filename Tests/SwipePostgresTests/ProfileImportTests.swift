import Foundation
import SwipePostgres
import SwipeStore
import SwipeTestSupport
import Testing

/// `swipe import` of profiles into PostgreSQL answers and stores what the
/// SQLite import does (README "Profiles CSV"): the same file:line messages
/// for the same bad files, the same counts on re-import, the same rows.
@Suite(.needsPostgres) struct ProfileImportTests {
    let backends: ImportBackends
    init() throws { backends = try ImportBackends() }

    /// Bad files, each with a message the README's contract words (checked
    /// as written here, not as printed by either importer).
    static let badFiles: [(name: String, text: String, expected: String)] = [
        ("empty", "", "empty.csv:1: the file is empty; the header row is required"),
        (
            "semicolons", "id;name;age\na;A;30\n",
            "semicolons.csv:1: value \"id;name;age\": the header looks ;-separated"
        ),
        ("unknown", "id,name,age,shoe\na,A,30,42\n", "unknown.csv:1: column shoe: unknown column"),
        ("missing", "name,age\nA,30\n", "missing.csv:1: column id: required column is missing"),
        (
            "partial", "id,name\na,A\n",
            "partial.csv:2: column age: value \"a\": a is a new id: age is required for a new profile, "
                + "and the file has no age column"
        ),
        (
            "young", "id,name,age\na,A,30\nb,B,17\n",
            "young.csv:3: column age: value \"17\": age must be a whole number from 18 to 120"
        ),
        (
            "repeat", "id,name,age\nb-1,A,30\nx,X,40\nb-1 ,C,31\n",
            "repeat.csv:4: column id: value \"b-1\": id repeats line 2; an id may appear once per file"
        ),
        (
            "halfplace", "id,name,age,lat,lon\na,A,30,52.5,\n",
            "halfplace.csv:2: column lon: value \"\": lat 52.5 has no lon: give both or neither"
        ),
        ("fields", "id,name,age\na,A\n", "fields.csv:2: has 2 fields, the header has 3"),
        (
            "window", "id,name,age,age_min,age_max\na,A,30,40,30\n",
            "window.csv:2: column age_max: value \"30\": age_max 30 is below age_min 40"
        ),
        ("quote", "id,name,age\na,\"A,30\n", "quote.csv:2"),
        (
            "many", "id,name,age\n" + (1...50).map { "p\($0),P,\($0 % 2 == 0 ? 30 : 12)\n" }.joined(),
            "many.csv:2: column age: value \"12\": age must be a whole number from 18 to 120"
        ),
    ]

    @Test(arguments: badFiles.map(\.name))
    func aBadFileGetsTheSameMessagesAsOnSQLiteAndNothingIsImported(name: String) throws {
        let file = Self.badFiles.first { $0.name == name }!
        let path = backends.folder.file(name + ".csv", file.text)
        let (sqlite, postgres) = backends.importProfiles(path)
        guard case .failed(let message) = postgres else {
            Issue.record("PostgreSQL imported a bad file: \(postgres)")
            return
        }
        #expect(message.contains(backends.folder.path + "/" + file.expected), "\(message)")
        if name == "many" { #expect(message.contains("\nand 5 more\nnothing imported (25 invalid rows)")) }
        #expect(postgres == sqlite)
        // Nothing behind, the schema included: the import brought it in its transaction.
        #expect(try backends.postgresCount("profiles") == nil)
    }

    @Test(arguments: [false, true])
    func skippingInvalidRowsRejectsTheSameRowsAsSQLite(secondImport: Bool) throws {
        if secondImport {
            let first = backends.folder.file("first.csv", "id,name,age\np2,Two,40\nq,Q,50\n")
            let (sqlite, postgres) = backends.importProfiles(first)
            #expect(sqlite == .imported(inserted: 2, updated: 0, unchanged: 0, rejected: []))
            #expect(postgres == sqlite)
        }
        let text =
            "id,name,age,lat,lon\n"
            + (1...30).map { k in
                switch k % 5 {
                case 0: "p\(k),P\(k),17,,\n"
                case 1: "p\(k),P\(k),30,91,10\n"
                case 2: "p\(k),Name \(k),\(20 + k),,\n"
                case 3: "p\(k),P\(k),30,10\n"
                default: "p\(k),,30,,\n"
                }
            }.joined()
        let path = backends.folder.file("mixed.csv", text)
        let (sqlite, postgres) = backends.importProfiles(path, skipInvalid: true)
        guard case let .imported(inserted, updated, _, rejected) = sqlite else {
            Issue.record("SQLite refused: \(sqlite)")
            return
        }
        // Every fifth row from the 2nd is good: 2, 7, …, 27.
        #expect(inserted + updated == 6)
        #expect(rejected.count == 24)
        #expect(postgres == sqlite)
        let stored = try backends.storedProfiles()
        #expect(stored.postgres == stored.sqlite)
    }

    @Test func reImportCountsUnchangedUpdatedAndInsertedAsSQLite() throws {
        let first = backends.folder.file(
            "people.csv",
            """
            id,name,age,gender,city,bio,photos,interests,lat,lon,seeking,age_min,age_max,max_km
            a,Ann,30,f,Berlin,"two
            lines",https://p.example/a.jpg; https://p.example/b.jpg,chess,52.52,13.4,m;f,25,35,50
            b,Bob,41,m,Köln,,,,,,,,,
            c,Cem,29,,,,,x;y,-33.9,151.2,f,,,
            """)
        var answers = backends.importProfiles(first)
        #expect(answers.sqlite == .imported(inserted: 3, updated: 0, unchanged: 0, rejected: []))
        #expect(answers.postgres == answers.sqlite)

        answers = backends.importProfiles(first)
        #expect(answers.sqlite == .imported(inserted: 0, updated: 0, unchanged: 3, rejected: []))
        #expect(answers.postgres == answers.sqlite)

        // b renamed, c's interests changed, d new; a as it was.
        let second = backends.folder.file(
            "second.csv",
            """
            id,name,age,gender,city,bio,photos,interests,lat,lon,seeking,age_min,age_max,max_km
            d,Dan,50,,,,,,,,,,,
            a,Ann,30,f,Berlin,"two
            lines",https://p.example/a.jpg; https://p.example/b.jpg,chess,52.52,13.4,m;f,25,35,50
            b,Bobby,41,m,Köln,,,,,,,,,
            c,Cem,29,,,,,x;z,-33.9,151.2,f,,,
            """)
        answers = backends.importProfiles(second)
        #expect(answers.sqlite == .imported(inserted: 1, updated: 2, unchanged: 1, rejected: []))
        #expect(answers.postgres == answers.sqlite)
        let stored = try backends.storedProfiles()
        #expect(stored.postgres == stored.sqlite)
        // Keys stay dense, as SQLite's: a re-import draws no key for a known id.
        #expect(stored.postgres.map { $0[0] } == ["1", "2", "3", "4"])
        #expect(stored.postgres.map { $0[1] } == ["a", "b", "c", "d"])
    }

    /// A first import drops the secondary indexes of the `profiles` it made
    /// and builds them after the COPY (`ProfileLoader`): they come back as
    /// schema.postgres.sql makes them, names and definitions, and they hold.
    @Test func aFirstImportLeavesTheIndexesTheSchemaMakes() throws {
        func indexes(_ connection: PGConnection) throws -> [[String]] {
            try connection.query(
                """
                SELECT i.relname::text, pg_get_indexdef(i.oid), coalesce(c.conname::text, ''),
                       coalesce(pg_get_constraintdef(c.oid), '')
                FROM pg_index AS x JOIN pg_class AS i ON i.oid = x.indexrelid
                LEFT JOIN pg_constraint AS c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
                WHERE x.indrelid = 'profiles'::regclass ORDER BY 1
                """
            ).map { row in try (0..<4).map { try row.text($0) } }
        }
        let reference = try PostgresTestDatabase()
        let schemaOnly = try reference.connect()
        try schemaOnly.execute(ImportBackends.schema)
        let expected = try indexes(schemaOnly)
        #expect(expected.map { $0[0] } == ["profiles_cell", "profiles_cell_key", "profiles_id_key", "profiles_pkey"])

        // Without places the place indexes stay through the COPY; with them all three are built after it.
        let unplaced = backends.folder.file("unplaced.csv", "id,name,age\nu,U,30\n")
        let other = try PostgresTestDatabase()
        _ = try PostgresImport.profiles(
            connection: try other.connect(), path: unplaced, options: ImportOptions(), schema: ImportBackends.schema)
        #expect(try indexes(try other.connect()) == expected)
        let file = backends.folder.file(
            "placed.csv", "id,name,age,lat,lon\nb,B,30,52.5,13.4\na,A,31,,\nc,C,32,-33.9,151.2\n")
        #expect(
            backends.importProfilesIntoPostgres(file) == .imported(inserted: 3, updated: 0, unchanged: 0, rejected: []))
        #expect(try indexes(backends.pg) == expected)
        // The unique id holds again: a known id is an update, never a second row.
        let again = backends.folder.file("again.csv", "id,name,age\nb,Bea,30\n")
        #expect(
            backends.importProfilesIntoPostgres(again) == .imported(inserted: 0, updated: 1, unchanged: 0, rejected: [])
        )
        #expect(throws: PostgresError.self) {
            try backends.pg.execute("INSERT INTO profiles (id, name, age) VALUES ('a', 'A', 40)")
        }
        #expect(
            try backends.pg.query("SELECT key::text, id FROM profiles ORDER BY key").map {
                [try $0.text(0), try $0.text(1)]
            }
                == [["1", "b"], ["2", "a"], ["3", "c"]])
    }

    @Test func aReImportWithFewerColumnsKeepsTheOthers() throws {
        let full = backends.folder.file(
            "full.csv",
            """
            id,name,age,gender,city,bio,photos,interests,lat,lon,seeking,age_min,age_max,max_km
            a,Ann,30,f,Berlin,Bio,https://p.example/a.jpg,chess,52.52,13.4,m,25,35,50
            b,Bob,41,m,Köln,Hi,https://p.example/b.jpg,go,1.5,2.5,f,30,60,
            """)
        _ = backends.importProfiles(full)
        // Only name and age, then only age_max (age_min takes its default with it) and lon (lat with it).
        let names = backends.folder.file("names.csv", "id,name,age\na,Anna,31\nb,Bob,41\n")
        var answers = backends.importProfiles(names)
        #expect(answers.sqlite == .imported(inserted: 0, updated: 1, unchanged: 1, rejected: []))
        #expect(answers.postgres == answers.sqlite)
        let halves = backends.folder.file("halves.csv", "id,name,age,age_max\na,Anna,31,40\n")
        answers = backends.importProfiles(halves)
        #expect(answers.sqlite == .imported(inserted: 0, updated: 1, unchanged: 0, rejected: []))
        #expect(answers.postgres == answers.sqlite)

        let stored = try backends.storedProfiles()
        #expect(stored.postgres == stored.sqlite)
        // Worked by hand: a keeps gender…seeking and max_km; age_min back to 18 with age_max 40.
        #expect(
            stored.postgres.first == [
                "1", "a", "Anna", "31", "f", "Berlin", "Bio", "[\"https://p.example/a.jpg\"]", "[\"chess\"]",
                "52.52", "13.4", "m", "18", "40", "50.0",
            ])
    }

    /// PostgreSQL text cannot hold a NUL: the row is refused with its line
    /// and column. SQLite stores it verbatim (README "Hostile input"), so
    /// here the backends differ on purpose.
    @Test func aNULInAFieldIsRefusedNamingLineAndColumn() throws {
        let bytes = Array("id,name,age,bio\na,Ann,30,fine\nb,Bob,40,nul\u{0}here\nc,C\u{0}em,50,\n".utf8)
        let path = backends.folder.file("nul.csv", bytes)
        let postgres = backends.importProfilesIntoPostgres(path)
        let prefix = backends.folder.path + "/nul.csv"
        #expect(
            postgres
                == .failed(
                    """
                    \(prefix):3: column bio: value "nul\u{0}here": bio holds a NUL character, which PostgreSQL cannot store
                    \(prefix):4: column name: value "C\u{0}em": name holds a NUL character, which PostgreSQL cannot store
                    nothing imported (2 invalid rows)
                    """))
        #expect(try backends.postgresCount("profiles") == nil)
        let skipped = backends.importProfilesIntoPostgres(path, skipInvalid: true)
        #expect(
            skipped
                == .imported(
                    inserted: 1, updated: 0, unchanged: 0,
                    rejected: [
                        "\(prefix):3: column bio: value \"nul\u{0}here\": bio holds a NUL character, which PostgreSQL cannot store",
                        "\(prefix):4: column name: value \"C\u{0}em\": name holds a NUL character, which PostgreSQL cannot store",
                    ]))
        #expect(
            backends.importProfilesIntoSQLite(path) == .imported(inserted: 3, updated: 0, unchanged: 0, rejected: []))
    }

    /// The seed: 241 profiles in many scripts, multi-line bios, places and
    /// preferences, stored alike, and a re-import changing nothing.
    @Test func theSeedIsStoredAsOnSQLite() throws {
        let seed = ImportBackends.root.appendingPathComponent("seed/profiles.csv").path
        var answers = backends.importProfiles(seed)
        #expect(answers.sqlite == .imported(inserted: 241, updated: 0, unchanged: 0, rejected: []))
        #expect(answers.postgres == answers.sqlite)
        answers = backends.importProfiles(seed)
        #expect(answers.postgres == .imported(inserted: 0, updated: 0, unchanged: 241, rejected: []))
        let stored = try backends.storedProfiles()
        #expect(stored.postgres.count == 241)
        #expect(stored.postgres == stored.sqlite)
        // Demo and its likers have generated pictures (scripts/make-seed.py), stored by both.
        let photoFiles = try FileManager.default.contentsOfDirectory(
            atPath: ImportBackends.root.appendingPathComponent("seed/photos").path)
        #expect(try backends.storedPhotoCounts() == (photoFiles.count, photoFiles.count))
        #expect(photoFiles.count > 50)
        #expect(stored.postgres.contains { $0[1] == "demo" && $0[7].hasPrefix("[\"/photos/sha256:") })
    }
}
