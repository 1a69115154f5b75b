import Foundation
import Testing

/// The tests' own PostgreSQL helpers (Tests/Support: a database per test)
/// follow the rule `SourceScanTests` holds SwipePostgres to: the only SQL
/// not written as a literal names a database through `quotedIdentifier`
/// (CREATE and DROP DATABASE take no parameters).
@Suite struct SupportSourceScanTests {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support")

    static let allowedArguments: Set<String> = [
        "\"CREATE DATABASE \" + connection.quotedIdentifier(database)",
        "\"CREATE DATABASE \" + admin.quotedIdentifier(name)",
        "\"DROP DATABASE IF EXISTS \" + quoted + \" WITH (FORCE)\"",  // quoted = connection.quotedIdentifier(name)
        // LiveSchema.run: a statement a test hands in as a literal (set-up rows
        // made by the database); its counts per column name tables and columns
        // read from the database's own catalogue, never values.
        "sql",
    ]

    @Test func theTestSupportBuildsNoSQLFromValues() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.support.path).filter {
            $0.hasSuffix(".swift")
        }
        var scanned = 0
        for file in files {
            let text = try String(contentsOf: Self.support.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for argument in SourceScanTests.sqlArguments(in: code) where !argument.isEmpty {
                // `run(` also names Process.run() and friends, which take no SQL.
                if argument == ")" || argument.hasPrefix("{") || argument.hasPrefix("[") || argument.hasPrefix(".") {
                    continue
                }
                scanned += 1
                #expect(
                    SourceScanTests.isPlainLiteral(argument) || Self.allowedArguments.contains(argument),
                    "\(file): SQL built from «\(argument)»")
            }
        }
        #expect(scanned >= 2, "the scan found TestStores' statements")
    }
}
