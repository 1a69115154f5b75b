import SwipePostgres
import SwipeTestSupport
import Testing

/// COPY FROM STDIN: bulk rows arrive verbatim, and a bad row anywhere leaves
/// the table as it was, with the server naming the line.
@Suite(.needsPostgres) struct CopyTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    static let rowCount = 100_000

    func makeTable(_ connection: PGConnection) throws {
        try connection.execute(
            """
            CREATE TABLE people (key int8 PRIMARY KEY, name text NOT NULL, age int4 NOT NULL CHECK (age BETWEEN 18 AND 120),
                                 score float8, bio text)
            """)
    }

    /// Row `k` of the generated data: the age cycles 18…77, every 7th bio is NULL.
    static func row(_ k: Int) -> [PostgresValue] {
        [
            .integer(Int64(k)), .text("name \(k)\t\\ \"é\""), .integer(Int64(18 + k % 60)), .real(Double(k) / 4),
            k % 7 == 0 ? .null : .text("bio \(k)\nline two"),
        ]
    }

    @Test func aHundredThousandRowsArriveWhole() throws {
        let connection = try database.connect()
        try makeTable(connection)
        let copied = try connection.copy("COPY people (key, name, age, score, bio) FROM STDIN") { writer in
            for k in 1...Self.rowCount { try writer.row(Self.row(k)) }
        }
        #expect(copied == Self.rowCount)
        // Independent sums worked from the generator's rules.
        let n = Self.rowCount
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == n)
        #expect(try connection.scalarInt("SELECT sum(key)::int8 FROM people") == n * (n + 1) / 2)
        #expect(
            try connection.scalarInt("SELECT sum(age)::int8 FROM people") == (1...n).reduce(0) { $0 + 18 + $1 % 60 })
        #expect(try connection.scalarInt("SELECT count(*) FROM people WHERE bio IS NULL") == n / 7)
        #expect(try connection.query("SELECT sum(score) FROM people")[0].double(0) == Double(n * (n + 1) / 2) / 4)
        let sample = try connection.query("SELECT name, bio, score FROM people WHERE key = $1", .integer(77_778))[0]
        #expect(try sample.text(0) == "name 77778\t\\ \"é\"")
        #expect(try sample.text(1) == "bio 77778\nline two")
        #expect(try sample.double(2) == 77_778.0 / 4)
    }

    @Test func oneBadRowRollsTheWholeCopyBackAndNamesItsLine() throws {
        let connection = try database.connect()
        try makeTable(connection)
        let bad = 73_512
        let error = #expect(throws: PostgresError.self) {
            try connection.copy("COPY people (key, name, age, score, bio) FROM STDIN") { writer in
                for k in 1...Self.rowCount {
                    var row = Self.row(k)
                    if k == bad { row[2] = .integer(17) }
                    try writer.row(row)
                }
            }
        }
        #expect(error?.kind == .server)
        #expect(error?.sqlState == "23514")
        #expect(error?.context?.contains("line \(bad)") == true, "\(String(describing: error))")
        #expect(error?.sql == "COPY people (key, name, age, score, bio) FROM STDIN")
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 0)

        let typed = #expect(throws: PostgresError.self) {
            try connection.copy("COPY people (key, name, age) FROM STDIN") { writer in
                try writer.row(.integer(1), .text("a"), .integer(20))
                try writer.row(.integer(2), .text("b"), .text("twenty"))
            }
        }
        #expect(typed?.sqlState == "22P02")
        #expect(typed?.context?.contains("line 2, column age: \"twenty\"") == true, "\(String(describing: typed))")
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 0)
        // The connection goes on.
        try connection.copy("COPY people (key, name, age) FROM STDIN") {
            try $0.row(.integer(1), .text("a"), .integer(20))
        }
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 1)
    }

    struct Stop: Error {}

    @Test func anErrorThrownWhileWritingAbortsTheCopy() throws {
        let connection = try database.connect()
        try makeTable(connection)
        #expect(throws: Stop.self) {
            try connection.copy("COPY people (key, name, age) FROM STDIN") { writer in
                for k in 1...50_000 { try writer.row(.integer(Int64(k)), .text("n"), .integer(30)) }
                throw Stop()
            }
        }
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 0)
        #expect(!connection.isInTransaction)
    }

    @Test func aCopyInsideATransactionRollsBackWithIt() throws {
        let connection = try database.connect()
        try makeTable(connection)
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.copy("COPY people (key, name, age) FROM STDIN") {
                    try $0.row(.integer(1), .text("a"), .integer(20))
                }
                #expect(try connection.scalarInt("SELECT count(*) FROM people") == 1)
                throw Stop()
            }
        }
        #expect(try connection.scalarInt("SELECT count(*) FROM people") == 0)
    }

    @Test func everyTypeAndAwkwardTextSurvivesCOPYsEscapes() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int4, i int8, d float8, s text, b bool, y bytea)")
        let texts = RoundTripTests.texts + ["\\", "\\\\N", "\r", "a\\tb"]
        try connection.copy("COPY t FROM STDIN") { writer in
            for (k, text) in texts.enumerated() {
                try writer.row(
                    .integer(Int64(k)), .integer(.min + Int64(k)), .real(-0.1 * Double(k)), .text(text),
                    .boolean(k % 2 == 0), .bytes([0, 0x5C, UInt8(k)]))
            }
            try writer.row(.integer(-1), .null, .null, .null, .null, .null)
        }
        let rows = try connection.query("SELECT k, i, d, s, b, y FROM t ORDER BY k")
        #expect(rows.count == texts.count + 1)
        #expect(try (0..<6).allSatisfy { try rows[0].isNull($0) || $0 == 0 })
        for (k, text) in texts.enumerated() {
            let row = rows[k + 1]
            #expect(try row.int64(1) == .min + Int64(k))
            #expect(try row.double(2) == -0.1 * Double(k))
            #expect(try row.text(3) == text, "text #\(k)")
            #expect(try row.bool(4) == (k % 2 == 0))
            #expect(try row.bytes(5) == [0, 0x5C, UInt8(k)])
        }
    }

    @Test func rawCSVBytesGoThroughAsWritten() throws {
        let connection = try database.connect()
        try makeTable(connection)
        let csv = "key,name,age\n1,\"Ann, \"\"A\"\"\",30\n2,Bo,40\n"
        let copied = try connection.copy("COPY people (key, name, age) FROM STDIN (FORMAT csv, HEADER true)") {
            writer in
            try Array(csv.utf8).withUnsafeBytes { try writer.write(raw: $0) }
        }
        #expect(copied == 2)
        #expect(try connection.scalarText("SELECT name FROM people WHERE key = $1", .integer(1)) == "Ann, \"A\"")
    }
}

/// A COPY started the wrong way is refused and leaves the connection usable
/// (libpq would otherwise stay in COPY mode and fail everything after).
@Suite(.needsPostgres) struct CopyMisuseTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func copyThroughExecuteOrTheWrongDirectionIsRefusedAndTheConnectionGoesOn() throws {
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k int8); INSERT INTO t VALUES (1), (2)")
        for attempt in [
            { try connection.execute("COPY t FROM STDIN") },
            { try connection.execute("COPY t TO STDOUT") },
            { _ = try connection.run("COPY t FROM STDIN") },
            { _ = try connection.copy("COPY t TO STDOUT") { _ in } },
            { _ = try connection.copy("SELECT 1") { _ in } },
        ] {
            let error = #expect(throws: PostgresError.self) { try attempt() }
            #expect(error?.kind == .client, "\(String(describing: error))")
            #expect(try connection.scalarInt("SELECT count(*) FROM t") == 2)
        }
    }

    @Test func noticesAreKeptNotPrinted() throws {
        let connection = try database.connect()
        try connection.execute("DROP TABLE IF EXISTS nothing_here")
        #expect(connection.recentNotices.last == "NOTICE:  table \"nothing_here\" does not exist, skipping")
    }
}
