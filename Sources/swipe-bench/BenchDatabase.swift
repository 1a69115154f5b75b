import SwipePostgres

/// The PostgreSQL databases the benchmarks make on the server they are
/// given: each section's own, empty at its start.
enum BenchDatabase {
    /// Drops `name` if an earlier run left it, creates it empty, and returns its URI.
    static func fresh(_ name: String, adminURI: String) throws -> String {
        let admin = try PGConnection(uri: adminURI)
        let quoted = try admin.quotedIdentifier(name)
        try admin.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
        try admin.execute("CREATE DATABASE " + quoted)
        return PostgresURI.replacingDatabase(in: adminURI, with: name)
    }

    /// Drops `name`, quietly (a benchmark's clean-up).
    static func drop(_ name: String, adminURI: String) {
        guard let admin = try? PGConnection(uri: adminURI), let quoted = try? admin.quotedIdentifier(name) else {
            return
        }
        try? admin.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
    }
}
