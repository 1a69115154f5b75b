import SwipeStore

/// Opens the PostgreSQL store. Until the `PostgresStore` branch is merged
/// there is none, and every PostgreSQL case fails saying so.
func openPostgresStore(uri: String, create: Bool, readOnly: Bool) throws -> any SwipeDatabase {
    throw PostgresStoreMissing()
}

struct PostgresStoreMissing: Error, CustomStringConvertible {
    var description: String { "PostgresStore is not in this build yet" }
}
