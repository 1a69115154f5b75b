import Foundation
import Testing

/// SwipePostgres binds every value: no statement it sends is built by
/// interpolating or concatenating anything but constants and quoted
/// identifiers. (SwipeStoreTests holds SwipeStore to the same rule.)
@Suite struct SourceScanTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/SwipePostgres")

    /// Non-literal SQL arguments allowed, each a constant or a wrapper passing its parameter on.
    static let allowedArguments: Set<String> = [
        "sql",  // the wrappers passing their caller's SQL on
        "Self.beginSQL(isolation)",  // three constant BEGIN statements
        "\"LISTEN \" + quotedIdentifier(channel)",  // PQescapeIdentifier, not a value
        "\"UNLISTEN \" + quotedIdentifier(channel)",
        "schema",  // PostgresImport: the text of schema.postgres.sql, given by the caller
        "step.sql",  // PostgresSchema.migrations: constant steps cut from schema.postgres.sql
        "Self.upsertSQL",  // made once from the constant column list
        "migrationToV3",  // PostgresSchema: schema.postgres.sql's Ranking section and a constant fill
        "sql + \" RETURNING key\"",  // PGConnection+SQLExecutor: the rules' INSERT, a constant suffix
        "decideFunction",  // PostgresSchema: schema.postgres.sql's decision function section, cut out
        "sendFunction",  // PostgresSchema: schema.postgres.sql's send function section, cut out
        "undoFunction",  // PostgresSchema: schema.postgres.sql's undo function section, cut out
        "rankStatsKeepFunction",  // PostgresSchema: schema.postgres.sql's rank_stats_keep, cut out
        "analystViews",  // PostgresSchema: schema.postgres.sql's views for analysts (version 7), cut out
        "orReplace(definition)",  // PostgresSchema: one of the four above, as CREATE OR REPLACE
        "begin",  // PGConnection: the deferred BEGIN, one of `beginSQL`'s constants (PostgresStore.write)
        // ProfileLoader: the DROPs and the definitions of profiles' indexes, written by the server
        // from its catalog (format's %I and %s of regclass, pg_get_indexdef, pg_get_constraintdef).
        "drops", "build",
    ]

    /// Interpolations allowed inside SQL literals: constants (column lists,
    /// the `--sync` setting's two spellings), never a value.
    static let allowedInterpolations = [
        "\\(Self.profileColumns)", "\\(PostgresStore.profileColumns)", "\\(PostgresStore.prefixedProfileColumns)",
        "\\(synchronous.setting)",
    ]

    /// The first argument of every call to a function that sends SQL, as written.
    static func sqlArguments(in code: String) -> [String] {
        let pattern = try! NSRegularExpression(
            pattern: #"(?<!func )(?<![A-Za-z])(execute|statement|query|run|scalarInt|scalarText|copy)\(\s*"#)
        let ns = code as NSString
        return pattern.matches(in: code, range: NSRange(location: 0, length: ns.length)).map { match in
            let rest = ns.substring(from: match.range.location + match.range.length)
            var depth = 0, inString = false, escaped = false, argument = ""
            for character in rest {
                if inString {
                    if character == "\"" && !escaped { inString = false }
                    escaped = character == "\\" && !escaped
                } else if character == "\"" {
                    inString = true
                } else if character == "(" {
                    depth += 1
                } else if character == ")" || character == "," {
                    if depth == 0 { break }
                    if character == ")" { depth -= 1 }
                }
                argument.append(character)
            }
            return argument.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The feed's statements: constants of `PostgresDiscoverySQL`, whose own
    /// interpolations `discoverySQLInterpolatesOnlyItsConstants` holds, or
    /// the walk by cells for a number of cells (its constants' branches,
    /// numbered: `inCells(count:)` adds parameter numbers, never values).
    static func isDiscoveryConstant(_ argument: String) -> Bool {
        argument.wholeMatch(of: /PostgresDiscoverySQL\.[A-Za-z]+/) != nil
            || argument.wholeMatch(of: /PostgresDiscoverySQL\.inCells\(count: [A-Za-z.]+\)/) != nil
    }

    /// A string literal (one line, or `"""` lines) holding no interpolation
    /// but the allowed constants.
    static func isPlainLiteral(_ argument: String) -> Bool {
        var text = argument
        for allowed in allowedInterpolations { text = text.replacingOccurrences(of: allowed, with: "") }
        if text.hasPrefix("\"\"\"") {
            return text.hasSuffix("\"\"\"") && text.count >= 6 && !text.contains("\\(")
                && !text.dropFirst(3).dropLast(3).contains("\"\"\"")
        }
        return text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2
            && !text.contains("\\(") && !text.dropFirst().dropLast().contains("\"")
    }

    /// `Self.name` where the same file defines `static let name = ` a plain
    /// literal (the import's statements, kept as named constants).
    static func isLiteralConstant(_ argument: String, in code: String) -> Bool {
        guard argument.hasPrefix("Self."), argument.dropFirst(5).allSatisfy({ $0.isLetter || $0.isNumber }) else {
            return false
        }
        let declaration = "static let " + argument.dropFirst(5) + " = "
        guard let start = code.range(of: declaration)?.upperBound else { return false }
        let rest = code[start...]
        let literal: Substring
        if rest.hasPrefix("\"\"\"") {
            guard let end = rest.dropFirst(3).range(of: "\"\"\"")?.upperBound else { return false }
            literal = rest[..<end]
            // Nothing may be added to it (`+ value`) on the next line.
            if rest[end...].drop(while: { $0 == " " || $0 == "\n" }).hasPrefix("+") { return false }
        } else {
            literal = rest.prefix(while: { $0 != "\n" })
        }
        return isPlainLiteral(String(literal))
    }

    @Test func everySQLArgumentIsALiteralOrAnAllowedConstant() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(files.count >= 10, "the scan found the sources")
        var scanned = 0
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                        && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///")
                }
                .joined(separator: "\n")
            for argument in Self.sqlArguments(in: code) where !argument.isEmpty && !argument.hasPrefix("_") {
                scanned += 1
                // Calls whose first argument is not SQL (handles, closures, argument lists).
                if ["handle", "arguments", "attempt", "isolation", "transform", "body", "path: path"].contains(argument)
                    || argument.hasPrefix("{") || argument.hasPrefix("[") || argument.hasPrefix(".")
                {
                    continue
                }
                #expect(
                    Self.isPlainLiteral(argument) || Self.allowedArguments.contains(argument)
                        || Self.isLiteralConstant(argument, in: code)
                        || Self.isDiscoveryConstant(argument),
                    "\(file): SQL built from «\(argument)»: bind values as $n parameters instead")
            }
        }
        #expect(scanned >= 10)
    }

    /// PostgresDiscoverySQL builds its statements from its own constants
    /// only: every `\(…)` in the file names one of its `static let`s.
    @Test func discoverySQLInterpolatesOnlyItsConstants() throws {
        let text = try String(
            contentsOf: Self.sources.appendingPathComponent("Discovery/PostgresDiscoverySQL.swift"),
            encoding: .utf8)
        let constants = Set(text.matches(of: /static let ([A-Za-z]+)/).map { String($0.output.1) })
        let interpolated = text.matches(of: /\\\(([^)]*)\)/).map { String($0.output.1) }
        #expect(constants.isSuperset(of: ["eligible", "columns", "likers", "byKey", "inCellsBranch"]))
        #expect(interpolated.count >= 8)
        for name in interpolated {
            #expect(constants.contains(name), "PostgresDiscoverySQL interpolates «\(name)», not one of its constants")
        }
        #expect(!Self.isDiscoveryConstant("PostgresDiscoverySQL.byKey + id"))
    }

    @Test func theScanCatchesInterpolationAndConcatenation() {
        let bad = #"try connection.execute("DELETE FROM t WHERE id = '\(id)'"); try run("SELECT " + column)"#
        let found = Self.sqlArguments(in: bad)
        #expect(found.count == 2)
        #expect(!found.contains { Self.isPlainLiteral($0) || Self.allowedArguments.contains($0) })
        #expect(Self.sqlArguments(in: #"try run("SELECT $1, $2", .integer(1))"#) == [#""SELECT $1, $2""#])
        // Named constants pass only when the same file makes them of a plain literal.
        let constants = #"""
            static let goodSQL = """
                SELECT a, b FROM t WHERE c = $1
                """
            static let badSQL = """
                SELECT \(column) FROM t
                """
            static let addedSQL = """
                SELECT a FROM t WHERE b =
                """ + value
            static let shortSQL = "SELECT 1"
            """#
        #expect(Self.isLiteralConstant("Self.goodSQL", in: constants))
        #expect(Self.isLiteralConstant("Self.shortSQL", in: constants))
        #expect(!Self.isLiteralConstant("Self.badSQL", in: constants))
        #expect(!Self.isLiteralConstant("Self.addedSQL", in: constants))
        #expect(!Self.isLiteralConstant("Self.missingSQL", in: constants))
        let multiline = "try run(\"\"\"\n  SELECT \\(Self.profileColumns) FROM p WHERE id = '\\(id)'\n  \"\"\")"
        #expect(Self.sqlArguments(in: multiline).count == 1)
        #expect(!Self.isPlainLiteral(Self.sqlArguments(in: multiline)[0]), "a value interpolated into \"\"\" lines")
        #expect(Self.isPlainLiteral("\"\"\"\n  SELECT \\(Self.profileColumns) FROM p\n  \"\"\""))
    }
}
