import SwipeStore

/// `swipe import` on PostgreSQL: `PostgresImport` (Import/), one
/// transaction per file. The first import into an empty database brings
/// `schema.postgres.sql` inside that transaction, so a failed one leaves the
/// database empty, and the next command still finds no swipe database (as
/// on SQLite a failed first import removes the file it made).
///
/// An import that changed rows then analyses the tables it wrote
/// (`analyzedAfterProfiles`, `analyzedAfterDecisions`), so the planner's
/// statistics describe what is stored now: the first session after an
/// import is planned as the later ones are (without it, until autovacuum
/// came by, a first session after an import of 200,000 profiles took about
/// 10× as long as the next).
extension PostgresStore {
    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        let summary = try importing { schema in
            try PostgresImport.profiles(connection: connection, path: path, options: options, schema: schema)
        }
        analyze(after: summary) { try connection.execute(Self.analyzedAfterProfiles) }
        return summary
    }

    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        let summary = try importing { schema in
            try PostgresImport.decisions(connection: connection, path: path, options: options, schema: schema)
        }
        analyze(after: summary) { try connection.execute(Self.analyzedAfterDecisions) }
        try refitAfterImport(summary)
        return summary
    }

    /// What a profiles import writes: the profiles, their photos, the
    /// settings (the photo secret) and the cursors it lowers.
    static let analyzedAfterProfiles = "ANALYZE profiles, photos, settings, feed_cursors, liker_cursors"

    /// What a decisions import writes: the ledger, the ranking's counts, the
    /// matches it makes and the likers' cursors it lowers.
    static let analyzedAfterDecisions = "ANALYZE decisions, rank_stats, matches, liker_cursors"

    /// Runs `analyze` (an ANALYZE of fixed tables) after an import that
    /// stored or changed rows. The import has committed by then: a failure
    /// here (a role that does not own the tables, which PostgreSQL answers
    /// with a warning only; a lost connection) leaves the statistics as they
    /// were, for autovacuum to bring up to date, and never fails the import.
    private func analyze(after summary: ImportSummary, _ analyze: () throws -> Void) {
        guard summary.inserted + summary.updated > 0, connection.isConnected else { return }
        try? analyze()
    }

    private func importing(_ body: (_ schema: String?) throws -> ImportSummary) throws -> ImportSummary {
        try liveSession {
            let summary = try body(pendingSchema ? PostgresSchema.sql : nil)
            pendingSchema = false
            return summary
        }
    }
}
