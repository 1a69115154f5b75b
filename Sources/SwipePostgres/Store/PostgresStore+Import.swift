import SwipeStore

extension PostgresStore {
    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        throw PostgresError(kind: .client, message: "importing into PostgreSQL is not built yet (\(location))")
    }

    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        throw PostgresError(kind: .client, message: "importing into PostgreSQL is not built yet (\(location))")
    }
}
