import Foundation
import SwipePostgres
import SwipeTestSupport
import Testing

/// Every bound type goes to the server and comes back unchanged, and the
/// server sees what was meant (its own functions check the values, so a
/// wrapper that mangled both ways the same would still fail).
@Suite(.needsPostgres) struct RoundTripTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    static let integers: [Int64] = [0, 1, -1, 42, Int64(Int32.max) + 1, Int64(Int32.min) - 1, .max, .min]
    static let doubles: [Double] = [
        0, -0.0, 1.5, -2.25, .pi, 1e-300, 1e300, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .infinity, -.infinity,
    ]
    static let texts: [String] = [
        "", "a", "'); DROP TABLE t;--", "\"\\'", "tab\there", "line\nbreak\r\n", "\\N", "$1", "%_",
        "Zoë 🏳️‍🌈 東京", "e\u{301}", "\u{1}\u{1B}[2J\u{7F}\u{85}", String(repeating: "x'\\\t", count: 5_000),
    ]

    @Test func integersRoundTripAsBigintAndTheServerSeesTheirValue() throws {
        let connection = try database.connect()
        for value in Self.integers {
            let row = try connection.query(
                "SELECT $1::int8, $1::int8 = $2::text::int8", .integer(value), .text(String(value)))[0]
            #expect(try row.int64(0) == value)
            #expect(try row.bool(1), "the server read \(value) as another number")
        }
    }

    @Test func integersBindToIntegerAndSmallintParametersAndOverflowIsTheServersError() throws {
        let connection = try database.connect()
        #expect(try connection.query("SELECT $1::int4 + 1", .integer(41))[0].int(0) == 42)
        #expect(try connection.query("SELECT $1::int2 * 2", .integer(-300))[0].int(0) == -600)
        let error = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::int4", .integer(Int64(Int32.max) + 1))
        }
        #expect(error?.sqlState == "22003", "numeric_value_out_of_range, got \(String(describing: error))")
    }

    @Test func doublesRoundTripBitForBit() throws {
        let connection = try database.connect()
        for value in Self.doubles {
            let back = try connection.query("SELECT $1::float8", .real(value))[0].double(0)
            #expect(back.bitPattern == value.bitPattern, "\(value) came back as \(back)")
        }
        #expect(try connection.query("SELECT $1::float8", .real(.nan))[0].double(0).isNaN)
        // The server agrees on the value, not only on the bits we sent.
        #expect(try connection.query("SELECT $1::float8 = 0.1::float8 + 0.2::float8", .real(0.1 + 0.2))[0].bool(0))
        #expect(try connection.query("SELECT $1::float8 * 2", .real(1.25))[0].double(0) == 2.5)
    }

    @Test func textRoundTripsVerbatimAndTheServerCountsItsCharacters() throws {
        let connection = try database.connect()
        for text in Self.texts {
            let row = try connection.query("SELECT $1::text, octet_length($1::text), length($1::text)", .text(text))[0]
            #expect(try row.text(0) == text)
            #expect(try row.int(1) == text.utf8.count)
            #expect(try row.int(2) == text.unicodeScalars.count)
        }
    }

    @Test func booleansAndBytesRoundTrip() throws {
        let connection = try database.connect()
        #expect(try connection.query("SELECT $1::bool", .boolean(true))[0].bool(0) == true)
        #expect(try connection.query("SELECT NOT $1::bool", .boolean(true))[0].bool(0) == false)
        let bytes: [UInt8] = [0, 1, 0x5C, 0x27, 0xFF, 0x0A, 0]
        let row = try connection.query("SELECT $1::bytea, length($1::bytea), encode($1::bytea, 'hex')", .bytes(bytes))[
            0]
        #expect(try row.bytes(0) == bytes)
        #expect(try row.int(1) == 7)
        #expect(try row.text(2) == "00015c27ff0a00")
    }

    @Test func nullsRoundTripForEveryTypeAndAreNotEmptyOrZero() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (i int8, d float8, s text, b bool, y bytea, n numeric)")
        try connection.run("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)", .null, .null, .null, .null, .null, .null)
        try connection.run(
            "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)",
            .integer(0), .real(0), .text(""), .boolean(false), .bytes([]), .text("0"))
        let rows = try connection.query("SELECT i, d, s, b, y, n::text, i IS NULL FROM t ORDER BY i NULLS FIRST")
        #expect(rows.count == 2)
        for column in 0..<6 { #expect(try rows[0].isNull(column), "column \(column) of the NULL row") }
        for column in 0..<6 { #expect(try !rows[1].isNull(column), "column \(column) of the zero row") }
        #expect(try rows[0].bool(6))
        #expect(try rows[0].value(2) == .null)
        #expect(try rows[1].value(0) == .integer(0))
        #expect(try rows[1].value(2) == .text(""))
        #expect(try rows[1].value(4) == .bytes([]))
        #expect(try rows[1].optionalText(2) == "")
        #expect(try rows[0].optionalText(2) == nil)
        #expect(try rows[0].optionalInt(0) == nil)
        #expect(try connection.scalarInt("SELECT i FROM t WHERE i IS NULL") == nil)
    }

    @Test func valuesForOtherTypesGoAsTextForTheServerToParse() throws {
        let connection = try database.connect()
        #expect(try connection.query("SELECT ($1::numeric * 2)::text", .text("1.10"))[0].text(0) == "2.20")
        #expect(try connection.query("SELECT ($1::numeric + 1)::text", .integer(41))[0].text(0) == "42")
        #expect(
            try connection.query(
                "SELECT $1::timestamptz = '2026-11-20T23:55:01.123Z'::timestamptz",
                .text("2026-11-20T23:55:01.123Z"))[0].bool(0))
        #expect(try connection.query("SELECT $1::jsonb ->> 'a'", .text(#"{"a": "b"}"#))[0].text(0) == "b")
        #expect(try connection.query("SELECT $1::jsonb", .text(#"{"a": 1}"#))[0].text(0) == #"{"a": 1}"#)
        #expect(try connection.query("SELECT $1::float4::float8", .real(0.5))[0].double(0) == 0.5)
    }

    @Test func rowsComeBackInOrderWithTheirTypesChecked() throws {
        let connection = try database.connect()
        let rows = try connection.query(
            "SELECT g, g::text, g * 0.5::float8 FROM generate_series(1, $1::int4) AS g", .integer(1000))
        #expect(rows.count == 1000)
        #expect(try rows.map { try $0.int(0) } == Array(1...1000))
        #expect(try rows.map { try $0.text(1) } == (1...1000).map(String.init))
        #expect(try rows[999].double(2) == 500)
        let error = #expect(throws: PostgresError.self) { try rows[0].int(1) }
        #expect(error?.kind == .client)
        #expect(error?.description.contains("column 1 (g) is text") == true, "\(String(describing: error))")
        let null = #expect(throws: PostgresError.self) { try connection.query("SELECT NULL::int8")[0].int(0) }
        #expect(null?.description.contains("is NULL") == true)
        #expect(throws: PostgresError.self) { try rows[0].int(3) }
    }

    @Test func aNulInTextIsTheServersRefusalNotASilentCut() throws {
        let connection = try database.connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::text", .text("a\u{0}b")) }
        #expect(error?.sqlState == "22021", "character_not_in_repertoire, got \(String(describing: error))")
        // Sent as text (a numeric parameter), a NUL would cut the value short: refused here.
        let cut = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::numeric", .text("1\u{0}2")) }
        #expect(cut?.kind == .client)
    }

    @Test func theNumberOfArgumentsIsCheckedBeforeSending() throws {
        let connection = try database.connect()
        let error = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::int8 + $2::int8", .integer(1))
        }
        #expect(error?.kind == .client)
        #expect(error?.message == "the statement takes 2 argument(s), 1 given")
        #expect(error?.sql == "SELECT $1::int8 + $2::int8")
    }

    @Test func preparedStatementsAreCachedAndCountChangedRows() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8 PRIMARY KEY, v text)")
        let insert = try connection.statement("INSERT INTO t VALUES ($1, $2)")
        #expect(try connection.statement("INSERT INTO t VALUES ($1, $2)") === insert)
        for k in 1...10 { #expect(try insert.run(.integer(Int64(k)), .text("v\(k)")) == 1) }
        #expect(try connection.run("UPDATE t SET v = v || $1 WHERE k > $2", .text("!"), .integer(4)) == 6)
        #expect(try connection.scalarText("SELECT v FROM t WHERE k = $1", .integer(5)) == "v5!")
        #expect(try connection.scalarText("SELECT v FROM t WHERE k = $1", .integer(99)) == nil)
        #expect(try connection.run("DELETE FROM t") == 10)
    }
}

/// A prepared statement outlives a change to its table made by another
/// session (a migration), as SQLite's statements do.
@Suite(.needsPostgres) struct StalePlanTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func aStatementIsPreparedAgainWhenItsTableChangesShape() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8); INSERT INTO t VALUES (1)")
        let select = try connection.statement("SELECT * FROM t WHERE k = $1")
        #expect(try select.query(.integer(1)).columnCount == 1)
        let migrator = try database.connect()
        try migrator.execute("ALTER TABLE t ADD COLUMN c text DEFAULT 'x'")
        let after = try select.query(.integer(1))
        #expect(after.columnCount == 2)
        #expect(try after[0].text(1) == "x")
        // Inside a transaction the failure aborts it: the caller is told, as before.
        try migrator.execute("ALTER TABLE t ADD COLUMN d int4 DEFAULT 7")
        let inside = #expect(throws: PostgresError.self) {
            try connection.transaction { _ = try select.query(.integer(1)) }
        }
        #expect(inside?.sqlState == "0A000")
        #expect(try select.query(.integer(1))[0].int(2) == 7)
    }
}
