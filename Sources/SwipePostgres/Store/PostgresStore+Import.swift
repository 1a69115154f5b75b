import SwipeStore

extension PostgresStore {
    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        try importing {
            throw PostgresError(kind: .client, message: "importing into PostgreSQL is not built yet (\(location))")
        }
    }

    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        try importing {
            throw PostgresError(kind: .client, message: "importing into PostgreSQL is not built yet (\(location))")
        }
    }

    /// Runs an import; when it fails and this open created the schema, the
    /// schema is dropped again (if no profile reached it meanwhile), so the
    /// next command still finds no swipe database, as on SQLite a failed
    /// first import removes the file it made.
    private func importing(_ body: () throws -> ImportSummary) throws -> ImportSummary {
        do {
            return try session(body)
        } catch {
            if createdSchema, connection.isConnected, !connection.isInTransaction,
               (try? connection.scalarInt("SELECT count(*) FROM profiles")) == 0 {
                try? PostgresSchema.drop(connection)
            }
            throw error
        }
    }
}
