import SwipePostgres
import SwipeStore

/// Opens the PostgreSQL store as the commands do.
func openPostgresStore(uri: String, create: Bool, readOnly: Bool) throws -> any SwipeDatabase {
    try PostgresStore(uri: uri, create: create, readOnly: readOnly)
}
