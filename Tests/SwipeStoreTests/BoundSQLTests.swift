import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// SQL is always bound, never built from values: text that looks like SQL or
/// is full of escapes is stored and read back verbatim, and no source file
/// interpolates a value into a statement.
@Suite struct BoundSQLTests {
    /// Strings that break SQL built by concatenation, LIKE patterns, JSON or C strings.
    static let hostile: [String] = [
        "'); DROP TABLE profiles;--", "Robert'); DROP TABLE decisions; --", "\"", "\"\"", "'", "''", "\\", "\\'",
        "%", "_", "%_%", "?1", ":name", "@x", "$1", "\u{1}\u{2}\u{7}\u{8}\t\u{B}\u{C}\u{1B}[2J\u{7F}", "\u{85}\u{2028}",
        "👩‍👩‍👧‍👦 🏳️‍🌈", "e\u{301}", "\u{202E}evil", String(repeating: "x'\"\\;", count: 2_000),
        String(repeating: "é", count: 10_000), "[\"not\",\"a\",\"list\"]", "null",
    ]

    @Test(arguments: TestBackend.all) func hostileTextRoundTripsThroughTheStoreVerbatim(_ backend: TestBackend) throws {
        let stores = TestStores()
        let store = try stores.store(backend)
        for (index, text) in Self.hostile.enumerated() {
            let profile = Profile(
                id: "id-\(index)-" + text, name: text, age: 30, gender: text, city: text, bio: text,
                photos: [text, text + "2"], interests: [text])
            try store.upsert(profile)
            #expect(try store.profile(id: profile.id) == profile, "text #\(index)")
        }
        _ = try store.record(
            viewer: "id-0-" + Self.hostile[0], profile: "id-1-" + Self.hostile[1], decision: .like, via: .drag)
        #expect(try store.history(HistoryQuery(viewer: "id-0-" + Self.hostile[0])).map(\.name) == [Self.hostile[1]])
        #expect(try store.stats().profiles == Self.hostile.count)
        #expect(try store.stats().decisions == 1, "the decisions table is still there")
    }

    @Test func jsonEscapesEveryControlCharacterC1Included() {
        #expect(JSONText.quoted("a\u{9B}31m") == #""a\u009b31m""#)
        #expect(JSONText.quoted("\u{80}\u{85}\u{9F}\u{A0}") == #""\u0080\u0085\u009f\#u{A0}""#)
        #expect(JSONText.quoted("\u{1B}[2J\u{7F}") == #""\u001b[2J\u007f""#)
    }

    // MARK: - Source scan

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Interpolations allowed inside SQL text: constants, never values.
    static let allowedInterpolations: Set<String> = [
        "Self.profileColumns",  // a fixed column list, SQLiteStore+Profiles
        "synchronous.rawValue",  // NORMAL or FULL, from a closed enum
        "SQLiteStore.profileColumns",  // the same list, ProfileChunkWriter
        "applicationID",  // Schema's constant application_id
        // The suspension test (SQLDatabase+Suspensions): a constant column
        // name and the dialect's constant expression for now.
        "Self.notSuspended(\"p.key\", executor.dialect)",
        "SQLiteStore.notSuspended(\"p.key\", .sqlite)",
    ]
    /// Non-literal SQL arguments allowed: constant SQL text.
    static let allowedArguments: Set<String> = [
        "sql",  // Schema.sql (schema.sql embedded verbatim), and the wrappers passing their parameter on
        "step.sql",  // Schema.migrations, constant steps
        "Self.chunkInsertSQL",  // ProfileChunkWriter's constant 64-row INSERT
        "pragma",  // SQLiteConnection.bulkWrite's two constant journal_mode pragmas
        "DiscoverySQL.one", "DiscoverySQL.likers", "DiscoverySQL.byKey",  // the feed's constant queries
        "DiscoverySQL.recentlyActive",  // the ranking's constant query
        "DiscoverySQL.marketSample",  // the market prior's constant query (Ranking.Market)
        "SchemaV2.placesIndex",  // schema.sql's CREATE INDEX profiles_cell, verbatim
        "Self.quotaSQL",  // SQLDatabase.checkQuota's constant query, shared with its plan test
        "Self.servedPhotoSQL",  // SQLDatabase.servedPhoto's constant query (SQLDatabase+Photos)
        "Self.makeMatchSQL",  // SQLDatabase+Ledger's one statement that makes a match
        "Self.changedDecisionsSQL",  // SQLDatabase+Changes' constant page of the change log, shared with its plan test
        "Self.changedMessagesSQL",  // the same for messages
        "Self.setSettingSQL",  // SQLDatabase+Settings' constant upsert of a setting
        "Self.firstMessagesSQL",  // SQLDatabase+Conversations' constant first-messages-per-day query
        // SQLDatabase+Insights' constant queries, one per measure.
        "Self.insightDecisionsSQL", "Self.insightActiveSQL", "Self.insightMatchesSQL",
        "Self.insightConversationsSQL", "Self.insightExposureSQL",
        // SQLDatabase+Conversations' constant reads of messages (one SELECT, constant WHERE clauses).
        "Self.messageByClientSQL", "Self.messageByKeySQL", "Self.conversationSQL",
        "insert", "upsert",  // SQLiteStore.profileUpsert: the fixed column list, a SET list of ProfileColumn names
    ]

    /// Every SQL argument passed to `statement`, `execute`, `scalarInt` or
    /// the rules' executor (`executor.run`, `.first`, `.all`, `.each`, …; a
    /// leading `Type.self` or `Outer.Type.self` decoder argument skipped):
    /// (file, argument text as written). Literals come back with their quotes.
    static func sqlArguments(in text: String) -> [String] {
        var found: [String] = []
        let pattern = try! NSRegularExpression(
            pattern:
                #"(?<!func )\b(statement|execute|scalarInt|executor\.(?:run|first|all|each|exists|insertReturningKey))\(\s*(?:[A-Z][A-Za-z]*(?:\.[A-Z][A-Za-z]*)*\.self,\s*)?"#
        )
        let ns = text as NSString
        for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let rest = ns.substring(from: match.range.location + match.range.length)
            if rest.hasPrefix("\"\"\"") {
                let body = rest.dropFirst(3)
                let end = body.range(of: "\"\"\"")?.lowerBound ?? body.endIndex
                found.append("\"\"\"" + body[..<end] + "\"\"\"")
            } else if rest.hasPrefix("\"") {
                var literal = "\"", escaped = false
                for character in rest.dropFirst() {
                    literal.append(character)
                    if character == "\"" && !escaped { break }
                    escaped = character == "\\" && !escaped
                }
                found.append(literal)
            } else {
                found.append(String(rest.prefix { $0 != ")" && $0 != "," }))
            }
        }
        return found
    }

    /// The expressions interpolated with `\(…)` in a literal.
    static func interpolations(in literal: String) -> [String] {
        var out: [String] = []
        var rest = Substring(literal)
        while let start = rest.range(of: "\\(") {
            var depth = 1, expression = ""
            for character in rest[start.upperBound...] {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
                if depth == 0 { break }
                expression.append(character)
            }
            out.append(expression)
            rest = rest[start.upperBound...]
        }
        return out
    }

    @Test func noStatementIsBuiltByInterpolatingValues() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path).filter {
            $0.hasSuffix(".swift")
        }
        var scanned = 0
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            // swipe-bench's raw C-API loop is the baseline SwipeSQLite is measured against.
            if text.contains("import CSQLite") {
                #expect(
                    file.hasPrefix("SwipeSQLite/") || file.hasPrefix("swipe-bench/"),
                    "only SwipeSQLite (and the benchmark's raw baseline) talks to SQLite: \(file)")
            }
            guard file.hasPrefix("SwipeSQLite/") || file.hasPrefix("SwipeCSV/") || file.hasPrefix("SwipeStore/") else {
                continue
            }
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for argument in Self.sqlArguments(in: code) {
                scanned += 1
                if argument.hasPrefix("\"") {
                    for expression in Self.interpolations(in: argument) {
                        #expect(
                            Self.allowedInterpolations.contains(expression), "\(file): \\(\(expression)) in \(argument)"
                        )
                    }
                } else {
                    #expect(Self.allowedArguments.contains(argument), "\(file): SQL passed as \(argument)")
                }
            }
        }
        #expect(scanned >= 25, "the scan found the store's statements")
    }

    @Test func theScannerSeesAnInterpolatedValue() {
        let bad = #"try connection.statement("SELECT * FROM profiles WHERE id = '\(id)'").run()"#
        #expect(Self.sqlArguments(in: bad) == [#""SELECT * FROM profiles WHERE id = '\(id)'""#])
        #expect(Self.interpolations(in: Self.sqlArguments(in: bad)[0]) == ["id"])
        let multiline = "try connection.execute(\"\"\"\n  DELETE FROM x WHERE y = \\(f(z))\n  \"\"\")"
        #expect(Self.interpolations(in: Self.sqlArguments(in: multiline)[0]) == ["f(z)"])
        #expect(Self.sqlArguments(in: "try connection.statement(query)") == ["query"])
    }
}
