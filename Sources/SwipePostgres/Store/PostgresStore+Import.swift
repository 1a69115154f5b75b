import SwipeStore

/// `swipe import` on PostgreSQL: `PostgresImport` (Import/), one
/// transaction per file. The first import into an empty database brings
/// `schema.postgres.sql` inside that transaction, so a failed one leaves the
/// database empty, and the next command still finds no swipe database (as
/// on SQLite a failed first import removes the file it made).
extension PostgresStore {
    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        try importing { schema in
            try PostgresImport.profiles(connection: connection, path: path, options: options, schema: schema)
        }
    }

    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        try importing { schema in
            try PostgresImport.decisions(connection: connection, path: path, options: options, schema: schema)
        }
    }

    private func importing(_ body: (_ schema: String?) throws -> ImportSummary) throws -> ImportSummary {
        try liveSession {
            let summary = try body(pendingSchema ? PostgresSchema.sql : nil)
            pendingSchema = false
            return summary
        }
    }
}
